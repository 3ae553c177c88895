import sharp from 'sharp';

export interface PhotoSize {
  width: number;
  height: number;
}

/** A 12-megapixel camera's frame. */
export const TWELVE_MEGAPIXELS: PhotoSize = { width: 4000, height: 3000 };

/** The smooth part of the picture is drawn at this fraction of its size and scaled up: light is smooth anyway. */
const SMOOTH_SCALE = 8;
const RGB = 3;
/** Two 8-bit uniforms summed spread over ±255; divided by this, the grain of a phone photo in dim light (about ±20). */
const GRAIN_DIVISOR = 6;

/**
 * A photo-like JPEG: smooth colour fields and waves that differ with `seed`,
 * under per-pixel sensor grain, at quality 88. A flat or purely synthetic
 * picture compresses to almost nothing and decodes faster than a photo; this
 * one weighs what a phone's 12-megapixel JPEG does (about 4.4 MiB) and costs
 * a decoder as much.
 */
export async function photoJpeg(seed: number, size: PhotoSize = TWELVE_MEGAPIXELS): Promise<Buffer> {
  const width = Math.max(1, Math.round(size.width / SMOOTH_SCALE));
  const height = Math.max(1, Math.round(size.height / SMOOTH_SCALE));
  const small = Buffer.alloc(width * height * RGB);
  const waveX = (0.002 + seed * 0.0007) * SMOOTH_SCALE;
  const waveY = (0.003 + seed * 0.0005) * SMOOTH_SCALE;
  let at = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const wave = Math.sin(x * waveX + Math.cos(y * waveY) * 3) * 40;
      small[at++] = 90 + (x * 120) / width + wave;
      small[at++] = 70 + (y * 140) / height - wave / 2;
      small[at++] = 160 - ((x + y) * 80) / (width + height) + wave / 3;
    }
  }
  const pixels = await sharp(small, { raw: { width, height, channels: RGB } })
    .resize(size.width, size.height)
    .raw()
    .toBuffer();
  // Clamped: grain past black or white stays there instead of wrapping round.
  const clamped = new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  // xorshift32: fast and seeded, so each photo's grain is its own and the same from run to run.
  let state = (0x9e3779b9 ^ (seed + 1)) >>> 0;
  for (let p = 0; p < clamped.length; p++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const grain = ((state & 0xff) + ((state >>> 8) & 0xff) - 255) / GRAIN_DIVISOR;
    clamped[p] = (clamped[p] as number) + grain;
  }
  return sharp(pixels, { raw: { width: size.width, height: size.height, channels: RGB } })
    .jpeg({ quality: 88 })
    .toBuffer();
}
