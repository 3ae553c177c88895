import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoJpeg } from './photos.js';

const SIZE = { width: 400, height: 300 };

describe('photoJpeg', () => {
  it('is a JPEG of the asked size, the same for a seed and different across seeds', async () => {
    const [first, again, other] = await Promise.all([photoJpeg(1, SIZE), photoJpeg(1, SIZE), photoJpeg(2, SIZE)]);
    const metadata = await sharp(first).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', SIZE.width, SIZE.height]);
    expect(again.equals(first)).toBe(true);
    expect(other.equals(first)).toBe(false);
  });

  it('weighs what a grainy photo does, not what a flat picture compresses to', async () => {
    const bytes = (await photoJpeg(0, SIZE)).length;
    const flat = await sharp({ create: { ...SIZE, channels: 3, background: '#808080' } })
      .jpeg({ quality: 88 })
      .toBuffer();
    // A phone's 12-megapixel JPEG is about 3 bits a pixel.
    expect((bytes * 8) / (SIZE.width * SIZE.height)).toBeGreaterThan(2);
    expect(bytes).toBeGreaterThan(10 * flat.length);
  });
});
