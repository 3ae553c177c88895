import { withRetries } from '../rendering/retry.js';
import type { AttachmentRef, ChatSurface, DownloadedFile } from '../surface/surface.js';
import type { Clock } from '../time/clock.js';
import { AttachmentUnavailableError } from '../files/attachment-unavailable.js';

export type AttachmentDownload = { ok: true; file: DownloadedFile } | { ok: false; error: AttachmentUnavailableError };

/**
 * An attachment's bytes through the surface. Transient failures are tried
 * again (rate limits waited out); a permanent one (over the cap, refused,
 * gone) comes back at once as what it is, for the person to be told. Rejects
 * when the tries run out, or when `signal` aborts.
 */
export async function downloadAttachment(
  surface: Pick<ChatSurface, 'download'>,
  attachment: AttachmentRef,
  clock: Clock,
  signal: AbortSignal | undefined,
): Promise<AttachmentDownload> {
  const options = signal === undefined ? {} : { signal };
  return withRetries(
    async (): Promise<AttachmentDownload> => {
      try {
        return { ok: true, file: await surface.download(attachment, options) };
      } catch (error) {
        if (error instanceof AttachmentUnavailableError) return { ok: false, error };
        throw error;
      }
    },
    clock,
    signal,
  );
}
