import { describe, expect, it } from 'vitest';
import { isImageAttachment } from './attachments.js';

describe('isImageAttachment', () => {
  it('offers the formats we can edit, by declared type or, without one, by name', () => {
    expect(isImageAttachment({ id: '1', name: 'a', mimeType: 'image/webp' })).toBe(true);
    expect(isImageAttachment({ id: '2', name: 'a.HEIC' })).toBe(true);
    expect(isImageAttachment({ id: '3', name: 'a.png', mimeType: 'application/octet-stream' })).toBe(true);
    // Discord names no format for some pictures, only their dimensions: the bytes decide.
    expect(isImageAttachment({ id: '4', name: 'poster', mimeType: 'image/*' })).toBe(true);
  });

  it('never offers a TIFF, an SVG or a document', () => {
    expect(isImageAttachment({ id: '5', name: 'scan.tiff', mimeType: 'image/tiff' })).toBe(false);
    expect(isImageAttachment({ id: '6', name: 'logo.svg' })).toBe(false);
    expect(isImageAttachment({ id: '7', name: 'report.png', mimeType: 'application/pdf' })).toBe(false);
  });
});
