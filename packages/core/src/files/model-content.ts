import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Sharp } from 'sharp';
import {
  MESSAGE_IMAGE_TYPES,
  type DocumentBlockParam,
  type ImageBlockParam,
  type MessageImageType,
  type TextBlockParam,
} from '../genai/types.js';
import {
  DEFAULT_IMAGE_HEADER_LIMITS,
  imageHeaderProblem,
  type ImageHeaderLimits,
  type ImageHeaderProblem,
} from './image-header.js';

/** A file of the conversation, as downloaded (or read from disk). */
export interface ModelFile {
  name: string;
  bytes: Uint8Array;
}

export interface ModelContentLimits {
  /** Images sent: the most recent ones (the files come oldest first). */
  maxImages: number;
  /** The long side of an image sent, in pixels: larger ones are scaled down to it. */
  maxImageSide: number;
  /** The bytes of one image sent: the messages operation takes at most 5 MB of Base64 per image. */
  maxImageBytes: number;
  maxTextBytes: number;
  maxPdfBytes: number;
  /** What all the files together may add to one request (their Base64 and text). */
  maxRequestBytes: number;
  /** Images declaring more than this are refused before anything decodes them. */
  imageHeader: ImageHeaderLimits;
}

const MIB = 1024 * 1024;

// One libvips thread an image: scaling a conversation's photos then never takes every core from the event loop.
sharp.concurrency(1);

/** The contract's limits; 1568 px is the long side the messages operation recommends. */
export const MODEL_CONTENT_LIMITS: ModelContentLimits = {
  maxImages: 4,
  maxImageSide: 1568,
  maxImageBytes: (5 * MIB * 3) / 4,
  maxTextBytes: 200 * 1024,
  maxPdfBytes: 20 * MIB,
  maxRequestBytes: 30 * MIB,
  imageHeader: DEFAULT_IMAGE_HEADER_LIMITS,
};

export type ModelContentBlock = TextBlockParam | ImageBlockParam | DocumentBlockParam;

/**
 * A file the model will not see, and why: `copy.modelFileNote` says it to the
 * person (an older image, left out as the contract says, gets no note).
 */
export type LeftOutFile = { name: string } & LeftOut;

type LeftOut =
  | { reason: 'older_image' }
  | { reason: 'unsupported' }
  | { reason: 'damaged' }
  // `image`, and a size not known, come from attachments too large to download.
  | { reason: 'too_large'; kind: 'text file' | 'PDF' | 'image'; size: number | undefined; limit: number }
  | { reason: 'image_refused'; problem: Exclude<ImageHeaderProblem, { kind: 'unreadable' }> }
  | { reason: 'over_request'; limit: number };

export interface ModelContent {
  /** Content blocks for the user turn, the files in the order given. */
  blocks: ModelContentBlock[];
  /** Files the model will not see, in the order given. */
  leftOut: LeftOutFile[];
}

type Prepared = { blocks: ModelContentBlock[]; bytes: number } | { leftOut: LeftOut };

type Kind =
  | { kind: 'image'; mediaType: MessageImageType }
  | { kind: 'pdf' }
  | { kind: 'text' }
  | { kind: 'unsupported' };

/**
 * Files of a conversation as content blocks for the messages operation:
 * images (the most recent few, each named by a text block before it, scaled
 * down when larger than the model takes, refused when their header declares
 * an image bomb), text files as text, PDFs as documents. The type is read
 * from the bytes, never from the name. A file that cannot go is left out with
 * a note, never a failure; past the request's size the older files are left out.
 */
export async function modelContent(
  files: readonly ModelFile[],
  limits: ModelContentLimits = MODEL_CONTENT_LIMITS,
): Promise<ModelContent> {
  const kinds = await Promise.all(files.map((file) => kindOf(file.bytes)));
  const images = kinds.flatMap((kind, index) => (kind.kind === 'image' ? [index] : []));
  const newestImages = new Set(images.slice(-limits.maxImages));

  const outcomes: Prepared[] = new Array(files.length);
  let budget = limits.maxRequestBytes;
  // Newest first, so when the files are too many for one request it is the older ones that stay behind.
  for (let index = files.length - 1; index >= 0; index--) {
    const file = files[index] as ModelFile;
    const kind = kinds[index] as Kind;
    if (kind.kind === 'image' && !newestImages.has(index)) {
      outcomes[index] = { leftOut: { reason: 'older_image' } };
      continue;
    }
    const prepared = await prepare(file, kind, limits);
    if ('blocks' in prepared && prepared.bytes > budget) {
      outcomes[index] = { leftOut: { reason: 'over_request', limit: limits.maxRequestBytes } };
      continue;
    }
    if ('blocks' in prepared) budget -= prepared.bytes;
    outcomes[index] = prepared;
  }

  const content: ModelContent = { blocks: [], leftOut: [] };
  for (const [index, outcome] of outcomes.entries()) {
    if ('blocks' in outcome) content.blocks.push(...outcome.blocks);
    else content.leftOut.push({ name: (files[index] as ModelFile).name, ...outcome.leftOut });
  }
  return content;
}

async function kindOf(bytes: Uint8Array): Promise<Kind> {
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  if (detected === undefined) return { kind: 'text' };
  if ((MESSAGE_IMAGE_TYPES as readonly string[]).includes(detected)) {
    return { kind: 'image', mediaType: detected as MessageImageType };
  }
  if (detected === 'application/pdf') return { kind: 'pdf' };
  // Text formats file-type recognises by their opening (XML and the like) are still text.
  if (detected.startsWith('text/') || detected === 'application/xml' || detected === 'application/json') {
    return { kind: 'text' };
  }
  return { kind: 'unsupported' };
}

async function prepare(file: ModelFile, kind: Kind, limits: ModelContentLimits): Promise<Prepared> {
  const size = file.bytes.byteLength;
  switch (kind.kind) {
    case 'unsupported':
      return { leftOut: { reason: 'unsupported' } };
    case 'pdf': {
      if (size > limits.maxPdfBytes) {
        return { leftOut: { reason: 'too_large', kind: 'PDF', size, limit: limits.maxPdfBytes } };
      }
      const data = base64(file.bytes);
      const block: DocumentBlockParam = {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data },
        title: file.name,
      };
      return { blocks: [block], bytes: data.length };
    }
    case 'text': {
      if (size > limits.maxTextBytes) {
        return { leftOut: { reason: 'too_large', kind: 'text file', size, limit: limits.maxTextBytes } };
      }
      const text = decodeText(file.bytes);
      if (text === undefined) return { leftOut: { reason: 'unsupported' } };
      const block: TextBlockParam = { type: 'text', text: fileText(file.name, text) };
      return { blocks: [block], bytes: Buffer.byteLength(block.text) };
    }
    case 'image': {
      const problem = await imageHeaderProblem(file.bytes, limits.imageHeader);
      if (problem?.kind === 'unreadable') return { leftOut: { reason: 'damaged' } };
      if (problem !== undefined) return { leftOut: { reason: 'image_refused', problem } };
      const image = await fitImage(file.bytes, kind.mediaType, limits);
      if (image === undefined) return { leftOut: { reason: 'damaged' } };
      const label: TextBlockParam = { type: 'text', text: imageLabel(file.name) };
      const data = base64(image.bytes);
      const block: ImageBlockParam = { type: 'image', source: { type: 'base64', media_type: image.mediaType, data } };
      return { blocks: [label, block], bytes: data.length + Buffer.byteLength(label.text) };
    }
  }
}

/** The words that name an image to the model, so it can refer to it (and to a tool by that name). */
function imageLabel(name: string): string {
  return `Image "${name}":`;
}

/** A text file for the model, its name on it and its end marked, so its words read as the file's. */
function fileText(name: string, text: string): string {
  return `<file name=${JSON.stringify(name)}>\n${text}\n</file>`;
}

/** UTF-8 text, or undefined for bytes that are not text (invalid UTF-8, or NUL bytes as binaries have). */
function decodeText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
  return text.includes('\u0000') ? undefined : text;
}

/**
 * The image as the model should get it: as it came when its long side is
 * within `maxImageSide` and its bytes within `maxImageBytes`; else scaled down
 * to that side when larger (turned upright first, as its orientation tag
 * says, since re-encoding drops the tag) and re-encoded in its own format (a
 * GIF as a PNG of its first frame), then as a JPEG if that is still too many
 * bytes (a photo kept as PNG). Undefined when the bytes do not decode.
 */
async function fitImage(
  bytes: Uint8Array,
  mediaType: MessageImageType,
  limits: ModelContentLimits,
): Promise<{ bytes: Uint8Array; mediaType: MessageImageType } | undefined> {
  try {
    // The header was checked already: its pixels are within the bomb limits.
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    const height = metadata.pageHeight ?? metadata.height;
    const tooWide = Math.max(metadata.width, height) > limits.maxImageSide;
    if (!tooWide && bytes.byteLength <= limits.maxImageBytes) return { bytes, mediaType };
    const upright = () =>
      sharp(bytes, { limitInputPixels: false })
        .rotate()
        .resize({ width: limits.maxImageSide, height: limits.maxImageSide, fit: 'inside', withoutEnlargement: true });
    if (tooWide) {
      const scaled = await encodeAs(upright(), mediaType);
      if (scaled.bytes.byteLength <= limits.maxImageBytes) return scaled;
    }
    // A JPEG has no transparency: what was see-through shows as white.
    return {
      bytes: await upright().flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer(),
      mediaType: 'image/jpeg',
    };
  } catch {
    return undefined;
  }
}

async function encodeAs(
  image: Sharp,
  mediaType: MessageImageType,
): Promise<{ bytes: Uint8Array; mediaType: MessageImageType }> {
  switch (mediaType) {
    case 'image/jpeg':
      return { bytes: await image.jpeg({ quality: 85 }).toBuffer(), mediaType };
    case 'image/webp':
      return { bytes: await image.webp({ quality: 85 }).toBuffer(), mediaType };
    case 'image/png':
    case 'image/gif':
      return { bytes: await image.png().toBuffer(), mediaType: 'image/png' };
  }
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
