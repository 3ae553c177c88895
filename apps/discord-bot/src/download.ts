import type { AttachmentRef, DownloadedFile } from '@genbot/core';

/**
 * Fetches an attachment from its CDN URL (our AttachmentRef id). Discord's
 * attachment URLs are signed and need no bot token, so none is sent.
 */
export async function downloadAttachment(attachment: AttachmentRef, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
  const response = await fetch(attachment.id, options.signal === undefined ? {} : { signal: options.signal });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`attachment download answered HTTP ${response.status}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const mimeType = response.headers.get('content-type') ?? attachment.mimeType;
  return { bytes, size: bytes.byteLength, ...(mimeType === undefined ? {} : { mimeType }) };
}
