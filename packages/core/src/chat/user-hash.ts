import { createHmac } from 'node:crypto';
import type { Platform } from '../surface/platform.js';

/** The key when the deployment has none of its own (the offline emulator): the hash is still no platform ID. */
const BUILT_IN_KEY = 'genbot metadata.user_id';

/**
 * The opaque per-user identifier a messages request carries as `metadata.user_id`, never the platform
 * ID itself: an HMAC-SHA256 of the platform and the user's ID, keyed per deployment. It depends on
 * nothing else, so one person keeps one identifier across conversations, channels, restarts and
 * worker processes (the service can tell one abusive user from many), while no one without the key
 * can tie it back to a Slack or Discord account.
 */
export function opaqueUserId(platform: Platform, userId: string, key: string | undefined): string {
  return createHmac('sha256', key ?? BUILT_IN_KEY)
    .update(`${platform}\u0000${userId}`)
    .digest('hex');
}
