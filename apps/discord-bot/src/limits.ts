import type { SurfaceLimits } from '@genbot/core/surface';

/** Discord's default per-file upload limit; an interaction states its own. */
export const DEFAULT_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Discord's documented message limits. A channel takes five new messages
 * in five seconds, so a few replies that start together show at once;
 * per-channel edit limits are not documented: about one edit a second
 * keeps a channel clear of 429s.
 */
export function discordLimits(maxUploadBytes: number = DEFAULT_UPLOAD_BYTES): SurfaceLimits {
  return {
    maxMessageChars: 2_000,
    minPostIntervalMs: 1_000,
    minEditIntervalMs: 1_000,
    channelBurst: 5,
    maxFilesPerMessage: 10,
    maxUploadBytes,
  };
}
