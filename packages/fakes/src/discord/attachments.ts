import type { AttachmentRecord } from './model.js';
import { sniffImage } from './image-info.js';
import type { SnowflakeGenerator } from './snowflake.js';

export interface Upload {
  readonly filename: string;
  /** As sent; empty or application/octet-stream means "unknown" and the bytes decide. */
  readonly contentType?: string | undefined;
  readonly bytes: Buffer;
  readonly description?: string | undefined;
}

export function attachmentPath(channelId: string, attachmentId: string, filename: string): string {
  return `/attachments/${channelId}/${attachmentId}/${encodeURIComponent(filename)}`;
}

/** Stores an upload the way Discord reports it: its own ID, CDN URL, size, type and image size. */
export function createAttachment(
  upload: Upload,
  channelId: string,
  ids: SnowflakeGenerator,
  baseUrl: string,
): AttachmentRecord {
  const id = ids();
  const image = sniffImage(upload.bytes);
  const declared = upload.contentType?.split(';')[0]?.trim();
  const contentType =
    declared && declared !== 'application/octet-stream' ? declared : (image?.contentType ?? 'application/octet-stream');
  return {
    id,
    filename: upload.filename,
    contentType,
    size: upload.bytes.length,
    ...(image?.width === undefined ? {} : { width: image.width, height: image.height }),
    ...(upload.description === undefined ? {} : { description: upload.description }),
    url: `${baseUrl}${attachmentPath(channelId, id, upload.filename)}`,
    bytes: upload.bytes,
  };
}
