import type { AttachmentRef } from '../surface/surface.js';

/** The formats we can edit (`IMAGE_FORMATS_IN_WORDS`), by name and by declared type. */
const IMAGE_NAME = /\.(png|jpe?g|webp|gif|heic|heif)$/i;
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/webp',
  'image/gif',
  'image/heic',
  'image/heif',
  // A picture whose format the platform did not name (Discord gives only its dimensions): its bytes decide.
  'image/*',
]);

/**
 * Declared as an image of a format we can edit (by MIME type, or by name when
 * the platform gave no type): a TIFF or an SVG is never offered for an edit.
 * Whether it really is one is decided later from its bytes.
 */
export function isImageAttachment(attachment: AttachmentRef): boolean {
  const type = attachment.mimeType?.toLowerCase();
  if (type !== undefined && type !== '' && type !== 'application/octet-stream') return IMAGE_TYPES.has(type);
  return IMAGE_NAME.test(attachment.name);
}
