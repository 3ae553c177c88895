import { cappedDownload, MAX_DOWNLOAD_BYTES } from '@genbot/core/files';
import type { AttachmentRef, DownloadedFile } from '@genbot/core/surface';
import { AttachmentUnavailableError } from '@genbot/core/errors';
import { z } from 'zod';

/** Discord's attachment hosts; nothing else is fetched, whatever a message or a redirect says. */
export const DISCORD_CDN_HOSTS: readonly string[] = ['cdn.discordapp.com', 'media.discordapp.net'];
export const DOWNLOAD_TIMEOUT_MS = 30_000;

/** Where an attachment lives: its (signed, expiring) URL and the message to fetch again for a fresh one. */
export interface AttachmentLocation {
  url: string;
  channelId?: string | undefined;
  messageId?: string | undefined;
  attachmentId?: string | undefined;
}

const location = z.object({
  url: z.string(),
  channelId: z.string().optional(),
  messageId: z.string().optional(),
  attachmentId: z.string().optional(),
});

/** Our opaque attachment ID: the location as JSON. */
export function encodeLocation(where: AttachmentLocation): string {
  return JSON.stringify(where);
}

/** The location an attachment ID holds; a bare URL (an older ID) has no message to fetch again. */
export function decodeLocation(id: string): AttachmentLocation {
  if (!id.startsWith('{')) return { url: id };
  try {
    const parsed = location.safeParse(JSON.parse(id));
    return parsed.success ? parsed.data : { url: '' };
  } catch {
    return { url: '' };
  }
}

/** Discord's CDN over HTTPS, or the configured API's origin (an emulator or a proxy). */
export function mayFetch(url: URL, apiOrigin: string): boolean {
  if (url.origin === apiOrigin) return true;
  return url.protocol === 'https:' && DISCORD_CDN_HOSTS.includes(url.hostname);
}

export interface DownloadOptions {
  /** The origin of DISCORD_API_URL. */
  apiOrigin: string;
  /** The attachment's current URL, read from its message again; undefined when it is gone. */
  refetch?: ((where: AttachmentLocation) => Promise<string | undefined>) | undefined;
  signal?: AbortSignal | undefined;
  maxBytes?: number;
  timeoutMs?: number;
}

/**
 * Fetches an attachment from Discord's CDN (signed URLs need no bot token, so
 * none is sent), bounded in hosts, size and time. A stored URL past its
 * signature's expiry answers 403 or 404: the message is fetched again for a
 * fresh one, and an attachment no longer on it is reported as deleted.
 */
export async function downloadAttachment(attachment: AttachmentRef, options: DownloadOptions): Promise<DownloadedFile> {
  const where = decodeLocation(attachment.id);
  const get = (url: string) =>
    cappedDownload(url, {
      allowed: (target) => mayFetch(target, options.apiOrigin),
      maxBytes: options.maxBytes ?? MAX_DOWNLOAD_BYTES,
      timeoutMs: options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS,
      signal: options.signal,
    });
  // An image the bot posted is kept as its message and attachment ids alone: its URL is read when needed.
  let response = where.url === '' ? undefined : await get(where.url);
  if ((response === undefined || response.status === 403 || response.status === 404) && options.refetch !== undefined) {
    const fresh = await options.refetch(where);
    if (fresh === undefined)
      throw new AttachmentUnavailableError('deleted', 'the attachment is no longer on its message');
    response = await get(fresh);
  }
  if (response === undefined) throw new AttachmentUnavailableError('deleted', 'no URL and no message to read it from');
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`attachment download answered HTTP ${response.status}`);
  }
  const mimeType = response.contentType?.split(';')[0]?.trim() || attachment.mimeType;
  return { bytes: response.bytes, size: response.bytes.byteLength, ...(mimeType === undefined ? {} : { mimeType }) };
}
