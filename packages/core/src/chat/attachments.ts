import type { AttachmentRef } from './surface.js';

const IMAGE_NAME = /\.(png|jpe?g|webp|gif|heic|heif|bmp|tiff?|avif|svg)$/i;

/**
 * Declared as an image (by MIME type, or by name when the platform gave no
 * type). Whether we can send it is decided later from its bytes.
 */
export function isImageAttachment(attachment: AttachmentRef): boolean {
  const type = attachment.mimeType?.toLowerCase();
  if (type !== undefined && type !== '' && type !== 'application/octet-stream') return type.startsWith('image/');
  return IMAGE_NAME.test(attachment.name);
}
