import { describe, expect, it } from 'vitest';
import { extensionForMimeType } from './mime.js';

describe('extensionForMimeType', () => {
  it.each([
    ['image/png', 'png'],
    ['image/jpeg', 'jpg'],
    ['IMAGE/JPEG; charset=binary', 'jpg'],
    ['image/webp', 'webp'],
    ['image/gif', 'gif'],
    ['image/heic', 'heic'],
    ['image/heif', 'heif'],
    ['image/avif', 'avif'],
    ['image/bmp', 'bmp'],
    ['image/tiff', 'tiff'],
    ['image/svg+xml', 'svg'],
    ['image/x-portable-anymap', 'portablean'],
    ['image/../../etc', 'bin'],
    ['image/', 'bin'],
    ['garbage', 'bin'],
  ])('%s -> %s', (mime, extension) => {
    expect(extensionForMimeType(mime)).toBe(extension);
  });
});
