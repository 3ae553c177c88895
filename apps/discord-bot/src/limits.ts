import type { SurfaceLimits } from '@genbot/core';

/** Discord's default per-file upload limit; an interaction states its own. */
export const DEFAULT_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Discord's documented message limits. Per-channel edit limits are not
 * documented: about one edit a second keeps a streamed reply clear of 429s.
 */
export function discordLimits(maxUploadBytes: number = DEFAULT_UPLOAD_BYTES): SurfaceLimits {
  return { maxMessageChars: 2_000, minEditIntervalMs: 1_000, maxFilesPerMessage: 10, maxUploadBytes };
}
