import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rgbPixels } from './http-test-client.js';
import { editImage, planEdit } from './image-edits.js';

const [WIDTH, HEIGHT] = [64, 48];

/** An orange picture, lighter to the right and darker towards the bottom, so flips and blurs show. */
async function orange(): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const offset = (y * WIDTH + x) * 3;
      const light = 0.5 + (0.5 * x) / WIDTH - (0.3 * y) / HEIGHT;
      raw[offset] = Math.round(250 * light);
      raw[offset + 1] = Math.round(130 * light);
      raw[offset + 2] = Math.round(30 * light);
      // A stripe every 8 pixels: sharp edges for a blur to soften.
      if (x % 8 === 0) raw.fill(255, offset, offset + 3);
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .png()
    .toBuffer();
}

/** Mean red, green and blue. */
async function means(image: Buffer): Promise<{ r: number; g: number; b: number; light: number }> {
  const { data } = await rgbPixels(image);
  const sums = [0, 0, 0];
  for (let i = 0; i < data.length; i++) sums[i % 3] = (sums[i % 3] ?? 0) + (data[i] ?? 0);
  const [r, g, b] = sums.map((sum) => sum / (data.length / 3)) as [number, number, number];
  return { r, g, b, light: (r + g + b) / 3 };
}

/** Mean difference per channel between two images of the same size. */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = [await rgbPixels(a), await rgbPixels(b)];
  expect([left.width, left.height]).toEqual([right.width, right.height]);
  let total = 0;
  for (let i = 0; i < left.data.length; i++) total += Math.abs((left.data[i] ?? 0) - (right.data[i] ?? 0));
  return total / left.data.length;
}

async function edited(instruction: string, seed?: number): Promise<Buffer> {
  return (await editImage(await orange(), instruction, { seed })).data;
}

describe('editImage', () => {
  it.each([
    ['make it blue', 'b'],
    ['make it red', 'r'],
    ['turn it green', 'g'],
  ] as const)('%s: that colour leads where orange did', async (instruction, channel) => {
    const colours = await means(await edited(instruction));
    const others = (['r', 'g', 'b'] as const).filter((c) => c !== channel).map((c) => colours[c]);
    for (const other of others) expect(colours[channel]).toBeGreaterThan(other + 20);
  });

  it('black and white: every pixel grey', async () => {
    const { data } = await rgbPixels(await edited('black and white please'));
    for (let i = 0; i < data.length; i += 3) {
      expect(data[i]).toBe(data[i + 1]);
      expect(data[i + 1]).toBe(data[i + 2]);
    }
  });

  it('brighter and darker move the mean lightness', async () => {
    const before = (await means(await orange())).light;
    expect((await means(await edited('make it brighter'))).light).toBeGreaterThan(before + 20);
    expect((await means(await edited('make it darker'))).light).toBeLessThan(before - 20);
  });

  it('flip turns it upside down, mirror left to right', async () => {
    const source = await rgbPixels(await orange());
    const flipped = await rgbPixels(await edited('flip it'));
    const mirrored = await rgbPixels(await edited('mirror it'));
    const at = (image: { data: Buffer }, x: number, y: number) => image.data[(y * WIDTH + x) * 3] ?? -1;
    for (const [x, y] of [
      [3, 2],
      [40, 10],
      [61, 45],
    ] as const) {
      expect(at(flipped, x, y)).toBe(at(source, x, HEIGHT - 1 - y));
      expect(at(mirrored, x, y)).toBe(at(source, WIDTH - 1 - x, y));
    }
  });

  it('blur softens the stripes', async () => {
    const source = await rgbPixels(await orange());
    const blurred = await rgbPixels(await edited('blur it'));
    // A stripe's red against its right-hand neighbour's: a sharp step before, a small one after.
    const step = (image: { data: Buffer }) => Math.abs((image.data[8 * 3] ?? 0) - (image.data[9 * 3] ?? 0));
    expect(step(blurred)).toBeLessThan(step(source) / 2);
  });

  it('a variation changes visibly, differs with each seed, and is the same for the same seed', async () => {
    const variation = 'Make a close variation of this image: keep its subject and change only small details.';
    const source = await orange();
    const [one, two, again] = [await edited(variation, 1), await edited(variation, 2), await edited(variation, 1)];
    expect(await difference(source, one)).toBeGreaterThan(8);
    expect(await difference(one, two)).toBeGreaterThan(8);
    expect(again.equals(one)).toBe(true);
  });

  it('a re-rolled edit (another seed) still does what it says, with other details', async () => {
    const [first, reroll] = [await edited('make it blue', 7), await edited('make it blue', 8)];
    expect(await difference(first, reroll)).toBeGreaterThan(3);
    for (const image of [first, reroll]) {
      const { r, b } = await means(image);
      expect(b).toBeGreaterThan(r);
    }
  });

  it('reads what the instruction asks for', () => {
    expect(planEdit('make it blue')).toMatchObject({ tint: { b: 235 }, seededChange: false });
    expect(planEdit('flip it horizontally')).toMatchObject({ mirror: true, flip: false });
    expect(planEdit('make it look nicer').seededChange).toBe(true);
    // The variation instruction names colours in general, not one colour.
    expect(planEdit('keep its colours and style; a variation').tint).toBeUndefined();
  });
});
