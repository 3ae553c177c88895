import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const WIDTH = 2048;
const RGB = 3;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A grey PNG of at least `bytes`, its pixels stored without compression: the
 * file is as large as a photo a user uploads, while a service decodes and
 * re-encodes it cheaply (a flat colour).
 */
export function storedPng(bytes: number): Buffer {
  const rowBytes = 1 + WIDTH * RGB;
  const height = Math.max(1, Math.ceil(bytes / rowBytes));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(height, 4);
  // 8 bits per channel, truecolour, deflate, adaptive filtering, no interlace.
  header.set([8, 2, 0, 0, 0], 8);
  const pixels = Buffer.alloc(rowBytes * height, 0x80);
  // Each row starts with its filter type: none.
  for (let y = 0; y < height; y++) pixels[y * rowBytes] = 0;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
