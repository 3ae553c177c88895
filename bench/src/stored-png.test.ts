import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { storedPng } from './stored-png.js';

const MIB = 1024 * 1024;

/** Every chunk of a PNG, with its CRC checked. */
function chunks(png: Buffer): { type: string; data: Buffer }[] {
  const found: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
    found.push({ type, data });
    at += 12 + length;
  }
  return found;
}

describe('storedPng', () => {
  it('is a well-formed PNG of at least the asked size whose pixels fill its declared rows', () => {
    const png = storedPng(13 * MIB);
    expect(png.length).toBeGreaterThanOrEqual(13 * MIB);
    expect(png.length).toBeLessThan(13.1 * MIB);
    expect(png.subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
    const [header, data, end] = chunks(png);
    expect([header?.type, data?.type, end?.type]).toEqual(['IHDR', 'IDAT', 'IEND']);
    const width = header?.data.readUInt32BE(0) ?? 0;
    const height = header?.data.readUInt32BE(4) ?? 0;
    expect(inflateSync(data?.data ?? Buffer.alloc(0)).length).toBe(height * (1 + width * 3));
  });
});
