import sharp from 'sharp';

/** A small PNG in one strong colour, so a greyscale result is easy to tell. */
export function colourPng(): Promise<Buffer> {
  return sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 210, g: 60, b: 30 } } })
    .png()
    .toBuffer();
}

/** Decodes an image and checks a grid of pixels for R == G == B. */
export async function isGreyscale(bytes: Uint8Array): Promise<boolean> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let y = 0; y < info.height; y += Math.max(1, Math.floor(info.height / 6))) {
    for (let x = 0; x < info.width; x += Math.max(1, Math.floor(info.width / 6))) {
      const at = (y * info.width + x) * info.channels;
      const [r, g, b] = [data[at], data[at + 1], data[at + 2]];
      if (r !== g || g !== b) return false;
    }
  }
  return true;
}
