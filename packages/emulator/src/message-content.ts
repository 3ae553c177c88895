import sharp, { type Metadata } from 'sharp';
import { z } from 'zod';

/** The image types the messages operation accepts, and the format sharp reads each as. */
const IMAGE_TYPES: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
/** The real service refuses an image over 5 MB (its Base64) and over 8000 px on a side. */
const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
const MAX_IMAGE_SIDE = 8000;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const Base64Source = z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() });
const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const ImageBlock = z.looseObject({ type: z.literal('image'), source: Base64Source });
const DocumentBlock = z.looseObject({
  type: z.literal('document'),
  source: z.union([Base64Source, z.looseObject({ type: z.literal('text'), media_type: z.string(), data: z.string() })]),
  title: z.string().optional(),
});
const ToolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});
const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.union([TextBlock, ImageBlock]))]).optional(),
  is_error: z.boolean().optional(),
});
const KNOWN = ['text', 'image', 'document', 'tool_use', 'tool_result'];

export const ContentBlock = z.union([
  TextBlock,
  ImageBlock,
  DocumentBlock,
  ToolUseBlock,
  ToolResultBlock,
  // Kinds the emulator does not read (thinking blocks sent back, for one) pass unread.
  z.looseObject({ type: z.string().refine((type) => !KNOWN.includes(type)) }),
]);
export type ContentBlock = z.infer<typeof ContentBlock>;
export type ImageBlock = z.infer<typeof ImageBlock>;
export type DocumentBlock = z.infer<typeof DocumentBlock>;
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;

export const ToolDefinition = z.looseObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
});

export type Content = string | ContentBlock[];

export function blocksOf(content: Content | undefined): ContentBlock[] {
  if (content === undefined) return [];
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

export function isBlock<T extends ContentBlock['type']>(
  block: ContentBlock,
  type: T,
): block is Extract<ContentBlock, { type: T }> {
  return block.type === type;
}

/** What the pixels of an image say, read from the bytes the request carried. */
export interface SeenImage {
  width: number;
  height: number;
  format: string;
  /** The colour most of the image is, by name and as `#rrggbb`. */
  colour: string;
  hex: string;
}

export interface SeenDocument {
  title: string | undefined;
  bytes: number;
  /** Pages counted in the PDF's objects; undefined when none could be counted. */
  pages: number | undefined;
}

/**
 * An image or document block checked as the real service checks it: Base64
 * without a data-URL prefix, a supported media type that the bytes really
 * are, within the size limits. Returns the problem in the service's words, or
 * what the block holds.
 */
export async function checkImage(block: ImageBlock, at: string): Promise<{ problem: string } | { image: SeenImage }> {
  const { media_type: mediaType, data } = block.source;
  const format = IMAGE_TYPES[mediaType];
  if (format === undefined) {
    return {
      problem: `${at}.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
    };
  }
  const bytes = decodeBase64(data);
  if (typeof bytes === 'string') return { problem: `${at}.source.base64.data: ${bytes}` };
  if (data.length > MAX_IMAGE_BASE64) {
    return {
      problem: `${at}.source.base64: image exceeds 5 MB maximum: ${data.length} bytes > ${MAX_IMAGE_BASE64} bytes`,
    };
  }
  let metadata: Metadata;
  let dominant: { r: number; g: number; b: number };
  try {
    metadata = await sharp(bytes, { pages: 1 }).metadata();
    dominant = (await sharp(bytes, { pages: 1 }).stats()).dominant;
  } catch {
    return { problem: `${at}.source.base64.data: Could not process image` };
  }
  if (metadata.format !== format) {
    return { problem: `${at}.source.base64.data: Image does not match the provided media type ${mediaType}` };
  }
  const height = metadata.pageHeight ?? metadata.height;
  if (metadata.width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return {
      problem: `${at}.source.base64.data: At least one of the image dimensions exceed max allowed size: ${MAX_IMAGE_SIDE} pixels`,
    };
  }
  const hex = `#${[dominant.r, dominant.g, dominant.b].map((value) => value.toString(16).padStart(2, '0')).join('')}`;
  return { image: { width: metadata.width, height, format: format.toUpperCase(), colour: colourName(dominant), hex } };
}

export function checkDocument(block: DocumentBlock, at: string): { problem: string } | { document: SeenDocument } {
  const { source } = block;
  if (source.type === 'text') {
    return { document: { title: block.title, bytes: Buffer.byteLength(source.data), pages: undefined } };
  }
  if (source.media_type !== 'application/pdf') {
    return { problem: `${at}.source.base64.media_type: Input should be 'application/pdf'` };
  }
  const bytes = decodeBase64(source.data);
  if (typeof bytes === 'string') return { problem: `${at}.source.base64.data: ${bytes}` };
  if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) return { problem: 'The PDF specified was not valid.' };
  const pages = bytes.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length;
  return { document: { title: block.title, bytes: bytes.length, pages: pages === 0 ? undefined : pages } };
}

function decodeBase64(data: string): Buffer | string {
  if (data.startsWith('data:')) return 'Base64 data must not carry a data URL prefix ("data:...;base64,")';
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return 'Invalid base64 data';
  return Buffer.from(data, 'base64');
}

const COLOURS: Array<[string, [number, number, number]]> = [
  ['black', [0, 0, 0]],
  ['white', [255, 255, 255]],
  ['grey', [128, 128, 128]],
  ['red', [220, 30, 30]],
  ['orange', [255, 140, 0]],
  ['yellow', [240, 220, 30]],
  ['green', [40, 170, 60]],
  ['cyan', [0, 200, 220]],
  ['blue', [30, 60, 220]],
  ['purple', [130, 50, 180]],
  ['pink', [255, 130, 190]],
  ['brown', [130, 80, 40]],
];

function colourName({ r, g, b }: { r: number; g: number; b: number }): string {
  let best = 'grey';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [name, [cr, cg, cb]] of COLOURS) {
    const distance = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2;
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** The deterministic answer about what the request showed the model. */
export function describeSeen(images: readonly SeenImage[], documents: readonly SeenDocument[]): string {
  const lines = [
    ...images.map(
      (image, index) =>
        `Image ${index + 1} is ${image.width} × ${image.height} pixels, ${image.format}, mostly ${image.colour} (${image.hex}).`,
    ),
    ...documents.map((document, index) => {
      const name = document.title === undefined ? `Document ${index + 1}` : `Document "${document.title}"`;
      return document.pages === undefined
        ? `${name} is ${document.bytes} bytes.`
        : `${name} has ${document.pages} ${document.pages === 1 ? 'page' : 'pages'} (${document.bytes} bytes).`;
    }),
  ];
  return lines.join(' ');
}
