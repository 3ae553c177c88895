import sharp from 'sharp';
import type { Sharp } from 'sharp';
import type { ImageFormat } from './directives.js';
import { fillNoise, seededRandom } from './seed.js';

export const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

export function isAspectRatio(value: string): value is AspectRatio {
  return (ASPECT_RATIOS as readonly string[]).includes(value);
}

/** 1:1 is 256x256; every other ratio keeps about the same pixel count. */
const BASE_PIXELS = 256 * 256;

export function dimensionsFor(ratio: AspectRatio, pixels = BASE_PIXELS): { width: number; height: number } {
  const [w, h] = ratio.split(':').map(Number) as [number, number];
  const height = Math.max(1, Math.round(Math.sqrt((pixels * h) / w)));
  return { width: Math.max(1, Math.round((height * w) / h)), height };
}

export const MIME_TYPES: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export interface EncodedImage {
  mimeType: string;
  data: Buffer;
}

export interface ImageSpec {
  seed: string;
  ratio: AspectRatio;
  format: ImageFormat;
  /** 0 for the ordinary picture; otherwise seeded noise of at least this many bytes. */
  minBytes: number;
}

type Rgb = [number, number, number];

function colour(random: () => number): Rgb {
  return [Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256)];
}

/** A diagonal two-colour gradient crossed by rings of a third colour, all chosen by the seed. */
function patternPixels(seed: string, width: number, height: number): Buffer {
  const random = seededRandom(seed);
  const [from, to, ring] = [colour(random), colour(random), colour(random)];
  const centreX = random() * width;
  const centreY = random() * height;
  const band = 8 + random() * 24;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const inRing = Math.floor(Math.hypot(x - centreX, y - centreY) / band) % 2 === 0;
      const offset = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const base = (from[c] as number) * (1 - t) + (to[c] as number) * t;
        pixels[offset + c] = Math.round(inRing ? (base + (ring[c] as number)) / 2 : base);
      }
    }
  }
  return pixels;
}

function encode(image: Sharp, format: ImageFormat, dense: boolean): Sharp {
  switch (format) {
    case 'png':
      return image.png({ compressionLevel: dense ? 0 : 6 });
    case 'jpeg':
      return image.jpeg(dense ? { quality: 100, chromaSubsampling: '4:4:4' } : { quality: 90 });
    case 'webp':
      return image.webp(dense ? { lossless: true, effort: 0 } : { quality: 90 });
  }
}

async function render(spec: ImageSpec, pixelCount: number): Promise<Buffer> {
  const { width, height } = dimensionsFor(spec.ratio, pixelCount);
  const dense = spec.minBytes > 0;
  let raw: Buffer;
  if (dense) {
    raw = Buffer.alloc(width * height * 3);
    fillNoise(raw, spec.seed);
  } else {
    raw = patternPixels(spec.seed, width, height);
  }
  return encode(sharp(raw, { raw: { width, height, channels: 3 } }), spec.format, dense).toBuffer();
}

async function produce(spec: ImageSpec): Promise<EncodedImage> {
  const mimeType = MIME_TYPES[spec.format];
  if (spec.minBytes === 0) return { mimeType, data: await render(spec, BASE_PIXELS) };
  // Noise barely compresses, so three bytes a pixel is a close first guess; grow until big enough.
  let pixels = Math.ceil((spec.minBytes / 3) * 1.02);
  for (;;) {
    const data = await render(spec, pixels);
    if (data.length >= spec.minBytes) return { mimeType, data };
    pixels = Math.ceil(pixels * (spec.minBytes / data.length) * 1.05);
  }
}

const CACHE_LIMIT = 16;
const cache = new Map<string, Promise<EncodedImage>>();

/** Deterministic, so repeated benchmark requests reuse the encoded bytes instead of re-encoding. */
export function generateImage(spec: ImageSpec): Promise<EncodedImage> {
  const key = JSON.stringify(spec);
  const cached = cache.get(key);
  if (cached) return cached;
  const pending = produce(spec);
  pending.catch(() => cache.delete(key));
  cache.set(key, pending);
  for (const oldest of cache.keys()) {
    if (cache.size <= CACHE_LIMIT) break;
    cache.delete(oldest);
  }
  return pending;
}

/** Pixels of a draft: a thumbnail. */
const DRAFT_PIXELS = 64 * 64;

/** A small rough version of the image, as a thinking model shows before its final one (marked as a thought). */
export async function generateDraft(seed: string, ratio: AspectRatio): Promise<EncodedImage> {
  const spec: ImageSpec = { seed: `draft:${seed}`, ratio, format: 'png', minBytes: 0 };
  return { mimeType: MIME_TYPES.png, data: await render(spec, DRAFT_PIXELS) };
}
