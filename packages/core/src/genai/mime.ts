const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/apng': 'apng',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'image/heic-sequence': 'heic',
  'image/heif': 'heif',
  'image/heif-sequence': 'heif',
  'image/avif': 'avif',
  'image/bmp': 'bmp',
  'image/x-ms-bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/svg+xml': 'svg',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/jxl': 'jxl',
};

/** Strips parameters and case: `Image/PNG; q=1` -> `image/png`. */
export function normalizeMimeType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * File extension (no dot) for a MIME type. Unknown types fall back to their
 * subtype, reduced to safe file-name characters, so a file is never named
 * after something the service made up (`../x`), and never assumed PNG.
 */
export function extensionForMimeType(mimeType: string): string {
  const normalized = normalizeMimeType(mimeType);
  const known = EXTENSIONS[normalized];
  if (known !== undefined) return known;
  const subtype = (normalized.split('/')[1] ?? '').replace(/^x-/, '').split('+')[0] ?? '';
  const safe = subtype.replace(/[^a-z0-9]/g, '').slice(0, 10);
  return safe === '' ? 'bin' : safe;
}
