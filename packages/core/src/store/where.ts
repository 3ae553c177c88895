import type { Platform } from '../surface/platform.js';

export type { Platform };

/**
 * Where something happened. `workspaceId` is the Slack team or the Discord
 * guild, absent in a Discord DM; `threadId` is the platform's thread key
 * (Slack thread_ts, a Discord thread channel or the message a reply refers to).
 */
export interface StoredPlace {
  platform: Platform;
  workspaceId?: string | undefined;
  channelId: string;
  threadId?: string | undefined;
}
