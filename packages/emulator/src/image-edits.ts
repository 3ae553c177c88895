import sharp from 'sharp';
import type { FormatEnum, Sharp } from 'sharp';
import { type AspectRatio, dimensionsFor, type EncodedImage } from './images.js';
import { seededRandom, sha256Hex } from './seed.js';

export class UndecodableImageError extends Error {}

/** Output formats an edit can answer in; the input's own format whenever sharp can write it. */
const EDIT_OUTPUT: Record<string, { mimeType: string; format: keyof FormatEnum | 'avif' }> = {
  jpeg: { mimeType: 'image/jpeg', format: 'jpeg' },
  png: { mimeType: 'image/png', format: 'png' },
  webp: { mimeType: 'image/webp', format: 'webp' },
  gif: { mimeType: 'image/gif', format: 'gif' },
  tiff: { mimeType: 'image/tiff', format: 'tiff' },
  heif: { mimeType: 'image/avif', format: 'avif' },
};

type Rgb = { r: number; g: number; b: number };

/** Colours an instruction can name, as the tint that keeps each pixel's lightness and takes the colour's hue. */
const COLOURS: readonly { words: RegExp; tint: Rgb }[] = [
  { words: /\bred\b/, tint: { r: 220, g: 30, b: 30 } },
  { words: /\borange\b/, tint: { r: 255, g: 120, b: 30 } },
  { words: /\byellow\b|\bgold(en)?\b/, tint: { r: 240, g: 210, b: 30 } },
  { words: /\bgreen\b/, tint: { r: 40, g: 190, b: 60 } },
  { words: /\b(teal|cyan|turquoise)\b/, tint: { r: 30, g: 190, b: 200 } },
  { words: /\bblue\b/, tint: { r: 40, g: 90, b: 235 } },
  { words: /\b(purple|violet)\b/, tint: { r: 150, g: 50, b: 210 } },
  { words: /\bpink\b/, tint: { r: 240, g: 110, b: 180 } },
  { words: /\bsepia\b|\bvintage\b/, tint: { r: 160, g: 110, b: 60 } },
];

/** What an edit does, read from its instruction's words. */
export interface EditPlan {
  tint?: Rgb;
  greyscale: boolean;
  negate: boolean;
  /** Upside down. */
  flip: boolean;
  /** Left to right. */
  mirror: boolean;
  rotate: boolean;
  blur: boolean;
  sharpen: boolean;
  /** Multiplier of brightness (1: unchanged). */
  brightness: number;
  /** Multiplier of saturation (1: unchanged). */
  saturation: number;
  /** Nothing recognised, or a variation asked for: a change of its own, chosen by the seed. */
  seededChange: boolean;
}

export function planEdit(instruction: string): EditPlan {
  const words = instruction.toLowerCase();
  const plan: EditPlan = {
    greyscale: /gr[ae]y ?scale|black[ -]and[ -]white|\bb ?& ?w\b|monochrome/.test(words),
    negate: /invert|negative/.test(words),
    mirror: /\bmirror|flip(ped)? (it )?(horizontally|sideways|left)|left[ -]to[ -]right/.test(words),
    flip: false,
    rotate: /\brotat/.test(words),
    blur: /\bblur/.test(words),
    sharpen: /\bsharpen|\bsharper\b/.test(words),
    brightness: /\b(brighter|brighten|lighter|lighten)\b/.test(words)
      ? 1.5
      : /\b(darker|darken|dimmer)\b/.test(words)
        ? 0.55
        : 1,
    saturation: /\b(more (colou?rful|saturated|vivid)|saturate|vivid)\b/.test(words)
      ? 1.8
      : /\b(desaturate|muted|washed[ -]out)\b/.test(words)
        ? 0.4
        : 1,
    seededChange: false,
  };
  plan.flip = !plan.mirror && /\bflip|upside[ -]down|vertically/.test(words);
  const tint = COLOURS.find((colour) => colour.words.test(words));
  if (tint !== undefined) plan.tint = tint.tint;
  const recognised =
    plan.tint !== undefined ||
    plan.greyscale ||
    plan.negate ||
    plan.flip ||
    plan.mirror ||
    plan.rotate ||
    plan.blur ||
    plan.sharpen ||
    plan.brightness !== 1 ||
    plan.saturation !== 1;
  plan.seededChange = !recognised || /\bvariation|\bvary\b|\bvariant/.test(words);
  return plan;
}

/** A few soft round marks in seeded colours and places: details that differ from one seed to the next. */
function marks(random: () => number, width: number, height: number): Buffer {
  const circles = Array.from({ length: 3 + Math.floor(random() * 3) }, () => {
    const r = Math.round((0.08 + random() * 0.14) * Math.min(width, height));
    const [x, y] = [Math.round(random() * width), Math.round(random() * height)];
    const fill = `rgb(${Math.floor(random() * 256)},${Math.floor(random() * 256)},${Math.floor(random() * 256)})`;
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" fill-opacity="0.7"/>`;
  });
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${circles.join('')}</svg>`,
  );
}

function apply(image: Sharp, plan: EditPlan, random: () => number): Sharp {
  let edited = image;
  if (plan.rotate) edited = edited.rotate(90);
  if (plan.flip) edited = edited.flip();
  if (plan.mirror) edited = edited.flop();
  // A variation moves the hues a little as well as adding details, so it shows at a glance.
  const hue = plan.seededChange ? Math.round((random() < 0.5 ? -1 : 1) * (70 + random() * 60)) : 0;
  if (plan.brightness !== 1 || plan.saturation !== 1 || hue !== 0)
    edited = edited.modulate({ brightness: plan.brightness, saturation: plan.saturation, hue });
  if (plan.tint !== undefined) edited = edited.tint(plan.tint);
  if (plan.greyscale) edited = edited.greyscale();
  if (plan.negate) edited = edited.negate({ alpha: false });
  if (plan.blur) edited = edited.blur(4);
  if (plan.sharpen) edited = edited.sharpen({ sigma: 2 });
  return edited;
}

/**
 * Changes the input as the instruction says (colours, black and white, sepia, invert, flip, mirror,
 * rotate, blur, sharpen, brighter, darker, more or less colourful; see the README), in the input's
 * own format. A variation, or words it does not know, get a change chosen by the seed: another
 * seed (a re-roll, a second variation) gives another picture, the same request the same bytes.
 * Given a seed, a recognised edit gets those seeded details too, so its re-roll differs as well.
 */
export async function editImage(
  input: Buffer,
  instruction: string,
  options: { ratio?: AspectRatio | undefined; seed?: number | undefined } = {},
): Promise<EncodedImage> {
  const plan = planEdit(instruction);
  const random = seededRandom(`${instruction}|${sha256Hex(input)}|${options.seed ?? ''}`);
  try {
    const metadata = await sharp(input).metadata();
    const output = EDIT_OUTPUT[metadata.format] ?? { mimeType: 'image/png', format: 'png' };
    let [width, height] = plan.rotate ? [metadata.height, metadata.width] : [metadata.width, metadata.height];
    let image = apply(sharp(input), plan, random);
    if (options.ratio !== undefined) {
      ({ width, height } = dimensionsFor(options.ratio, width * height));
      image = image.resize(width, height, { fit: 'cover' });
    }
    if (plan.seededChange || options.seed !== undefined) {
      // Composited as a separate step: sharp draws overlays after its own operations, on the final size.
      const base = await image.png().toBuffer();
      image = sharp(base).composite([{ input: marks(random, width, height) }]);
    }
    const data = await image.toFormat(output.format).toBuffer();
    return { mimeType: output.mimeType, data };
  } catch (error) {
    throw new UndecodableImageError(error instanceof Error ? error.message : String(error));
  }
}
