import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, checksum]);
}

/**
 * A valid PNG of a few hundred bytes whose header declares `width` × `height`
 * pixels: its pixel data is a short stream that would never fill them.
 */
export function pngDeclaring(width: number, height: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(1024))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/**
 * A real, decodable black PNG of `width` × `height` pixels, one bit each:
 * megapixels of it are made in milliseconds, where sharp takes seconds.
 */
export function blackPng(width: number, height: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // Each row: filter type 0, then a bit per pixel.
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** An animated GIF of `frames` 4 × 4 frames, alternating black and white so none merge. */
export async function gifWithFrames(frames: number): Promise<Uint8Array> {
  const size = 4 * 4 * 3;
  const raw = Buffer.alloc(size * frames);
  for (let frame = 0; frame < frames; frame += 1) raw.fill(frame % 2 === 0 ? 255 : 0, frame * size, (frame + 1) * size);
  return new Uint8Array(
    await sharp(raw, { raw: { width: 4, height: 4 * frames, channels: 3, pageHeight: 4 } })
      .gif()
      .toBuffer(),
  );
}
