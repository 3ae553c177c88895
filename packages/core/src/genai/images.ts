import { fileTypeFromBuffer } from 'file-type';
import type { Logger } from 'pino';
import { BadResponseError, NotAnImageError, type ServiceOperation } from './errors.js';
import { UsageError } from '../errors.js';
import { extensionForMimeType, normalizeMimeType } from './mime.js';
import { RawText } from './raw-text.js';
import type { GenerateContentResponse, GeneratedImage, InputImage } from './types.js';
import { processTurns } from '../time/loop-turns.js';

/**
 * Largest image we send inline. The service caps a whole inline request at
 * 20 MB; Base64 grows data by 4/3, so 15 MB of raw bytes would already fill
 * it. 14 MiB (14,680,064 bytes) encodes to about 19.57 MB, which leaves some
 * 420 KB for the prompt, the instruction and the JSON around them.
 */
export const MAX_INLINE_IMAGE_BYTES = 14 * 1024 * 1024;

/** The formats an image to edit may have, as people read them: the same words in the CLI, the bots and the playground. */
export const IMAGE_FORMATS_IN_WORDS = 'PNG, JPEG, WebP, GIF or HEIC';

const ACCEPTED_INPUT_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/heic',
  'image/heif',
]);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

// A Markdown image or a bare data URL, as some models put images in text parts.
const DATA_URL = /data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+)/g;

/**
 * Images are megabytes of Base64: a regex over the whole string cost ~40 ms an
 * image (twice the official SDK's CPU). Node's decoder skips characters outside
 * the alphabet, so a decode of full length proves every character was valid;
 * only the URL-safe '-' and '_', which Node also accepts, need a separate look.
 * Anything else (whitespace, bad characters) takes the strict path below.
 */
function decodeCanonicalBase64(data: string): Uint8Array | undefined {
  if (data.length % 4 !== 0 || data.includes('-') || data.includes('_')) return undefined;
  const decoded = Buffer.from(data, 'base64');
  if (decoded.byteLength !== canonicalLength(data.length, (index) => data.charCodeAt(index))) return undefined;
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
}

/** The call an answer came from, for the errors raised while reading it. */
export interface AnswerContext {
  operation?: ServiceOperation | undefined;
  model?: string | undefined;
}

/**
 * Base64 characters decoded at once from an answer's bytes: each slice is
 * copied out as a string first. This long (under V8's 128 KiB for an ordinary
 * object, and Node's ~1 MB above which it keeps a string outside the heap),
 * the strings are young objects that fill the young generation and die there,
 * so scavenges come often and free them with the socket's dead chunks. Slices
 * of 1 MiB were external strings that waited for a full collection: at 50
 * /imagine in flight they were a third of the bot's growth (3.4-3.9x the bytes
 * in flight against 2.3-2.9x). The price is the young generation's one-time
 * growth to its working size: the client alone, measured from a cold start
 * beside @google/genai, grows ~20 MiB more (0.29x to ~0.5x of the SDK's).
 */
const SLICE_CHARS = 120 * 1024;
/** Slices decoded in one turn of the event loop (1.5 MiB of image, a millisecond or two). */
const SLICES_PER_TURN = 17;
const EQUALS = 0x3d;
/**
 * Bytes only the strict path takes: the URL-safe '-' and '_', which Node
 * would decode, and whitespace, which the strict path takes out first.
 */
const STRICT_PATH_ONLY = [0x2d, 0x5f, 0x20, 0x0a, 0x0d, 0x09];

/**
 * decodeCanonicalBase64 on an answer's bytes (RawText), in place: the image
 * takes the first three quarters of its own Base64, so the answer holds each
 * image once and nothing of its size is allocated again (an image is then a
 * view on the answer: see `releaseBytes`). A slice at a time, so a long image
 * yields the loop between slices (parsed together, concurrent answers stalled
 * it); each slice is 4n characters, so it decodes alone, and is copied out as
 * a string before its bytes are written over, which are never ahead of the
 * slice being read. Text the strict path may still read (whitespace, the
 * URL-safe alphabet, a length that is no multiple of 4) is left as it is; a
 * character outside the alphabet or a padding sign inside decodes short, and
 * the text is gone by then: that is the error the strict path would give.
 */
async function decodeRawBase64InPlace(data: RawText, call: AnswerContext): Promise<Uint8Array | undefined> {
  const text = data.bytes;
  if (text.byteLength % 4 !== 0 || STRICT_PATH_ONLY.some((byte) => text.includes(byte))) return undefined;
  const length = canonicalLength(text.byteLength, (index) => text[index]);
  let written = 0;
  await processTurns.inSlices(text.byteLength, SLICE_CHARS, SLICES_PER_TURN, (from, to) => {
    written += text.write(text.toString('latin1', from, to), written, 'base64');
  });
  if (written !== length) throw notBase64(call);
  return new Uint8Array(text.buffer, text.byteOffset, length);
}

/**
 * The bytes canonical Base64 of `length` characters decodes to: three for
 * every four, less one for each padding sign ending it. A sign before the last
 * character is no padding: such text decodes short, and so is refused.
 */
function canonicalLength(length: number, codeAt: (index: number) => number | undefined): number {
  const padding = codeAt(length - 1) !== EQUALS ? 0 : codeAt(length - 2) === EQUALS ? 2 : 1;
  return (length / 4) * 3 - padding;
}

const notBase64 = (call: AnswerContext) =>
  new BadResponseError('The service returned image data that is not valid Base64.', call);

/** Decodes strict Base64 (whitespace tolerated); anything else is the service's fault. */
async function decodeBase64(data: string | RawText, call: AnswerContext): Promise<Uint8Array> {
  const fast = data instanceof RawText ? await decodeRawBase64InPlace(data, call) : decodeCanonicalBase64(data);
  if (fast !== undefined) return fast;
  const compact = data.toString().replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) throw notBase64(call);
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

async function toImage(
  declaredMimeType: string,
  data: string | RawText,
  options: { logger?: Logger | undefined; call?: AnswerContext | undefined },
): Promise<GeneratedImage> {
  // A turn of the event loop of its own for each image (as between reading and parsing in the client).
  await processTurns.take();
  const bytes = await decodeBase64(data, options.call ?? {});
  const logger = options.logger;
  const declared = normalizeMimeType(declaredMimeType);
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  const mimeType = declared === '' ? (detected ?? 'application/octet-stream') : declared;
  const disagrees = detected !== undefined && extensionForMimeType(detected) !== extensionForMimeType(mimeType);
  if (disagrees) {
    logger?.warn(
      { declaredMimeType: mimeType, detectedMimeType: detected },
      'image bytes do not match the declared MIME type',
    );
  }
  return {
    mimeType,
    extension: extensionForMimeType(mimeType),
    bytes,
    ...(disagrees ? { detectedMimeType: detected } : {}),
  };
}

/**
 * Every image in a generate-content response: the inlineData parts with data,
 * across all candidates. Only when there is none, data URLs found in text
 * parts. Parts marked `thought` (a thinking model's drafts) are never results.
 */
export async function extractImages(
  response: GenerateContentResponse,
  options: { logger?: Logger | undefined; call?: AnswerContext | undefined } = {},
): Promise<GeneratedImage[]> {
  const parts = (response.candidates ?? [])
    .flatMap((candidate) => candidate.content?.parts ?? [])
    .filter((part) => part.thought !== true);
  const inline = parts.flatMap((part) =>
    part.inlineData !== undefined && part.inlineData !== null && part.inlineData.data.length > 0
      ? [part.inlineData]
      : [],
  );
  if (inline.length > 0) {
    return Promise.all(inline.map((item) => toImage(item.mimeType, item.data, options)));
  }
  const fromText = parts
    .flatMap((part) => [...(part.text ?? '').matchAll(DATA_URL)])
    .flatMap((match) =>
      match[1] !== undefined && match[2] !== undefined ? [{ mimeType: match[1], data: match[2] }] : [],
    );
  return Promise.all(fromText.map((item) => toImage(item.mimeType, item.data, options)));
}

/**
 * Checks an image we are about to send: its type comes from its bytes (never
 * from a file name), and it must fit inline. Nothing is sent when this throws.
 */
export async function readInputImage(bytes: Uint8Array): Promise<InputImage> {
  if (bytes.byteLength === 0) throw new UsageError('The image file is empty.');
  if (bytes.byteLength > MAX_INLINE_IMAGE_BYTES) {
    const mb = (bytes.byteLength / 1024 / 1024).toFixed(1);
    throw new UsageError(
      `The image is too large (${mb} MiB): the service takes at most ${MAX_INLINE_IMAGE_BYTES / 1024 / 1024} MiB inline.`,
    );
  }
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  if (detected === undefined || !ACCEPTED_INPUT_TYPES.has(detected)) {
    throw new NotAnImageError(
      `Unsupported image type${detected === undefined ? '' : ` (${detected})`}: use ${IMAGE_FORMATS_IN_WORDS}.`,
    );
  }
  return { mimeType: detected, bytes };
}
