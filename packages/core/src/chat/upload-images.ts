import type { GeneratedImage } from '../genai/types.js';
import { copy } from '../copy/copy.js';
import { imageFileName, resultTag } from '../files/file-names.js';
import type { ChatDeps } from './deps.js';
import { paceKeyOf } from '../rendering/channel-budget.js';
import { pacedCall } from '../rendering/paced-call.js';
import { fitted } from './status-message.js';
import type { ChatTarget, UploadFile } from '../surface/surface.js';

/**
 * A result's text: `numbered`, when given, once its images' version numbers
 * are known (`ChatDeps.numberImages`, just before the upload), else `text`.
 */
export interface ResultText {
  text: string;
  numbered?: ((numbers: readonly number[]) => string) | undefined;
}

export interface UploadResult {
  uploaded: number;
  /** Images over the surface's upload limit, left out. */
  tooLarge: number;
  /** That limit, for the words that say so. */
  limitBytes: number;
}

/** Groups files into messages within the surface's count and size limits. */
function batches(files: UploadFile[], maxFiles: number, maxBytes: number): UploadFile[][] {
  const groups: UploadFile[][] = [];
  let group: UploadFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (group.length > 0 && (group.length >= maxFiles || bytes + file.bytes.byteLength > maxBytes)) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(file);
    bytes += file.bytes.byteLength;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * Uploads every image, named `{stem}-{n}-{tag}` with its real type (the tag tells this result's
 * files from another's with the same stem), as few messages
 * as the surface allows, each with `comment` (standard Markdown) as its text.
 * Where the job's images are versions, each message's are numbered first.
 */
export async function uploadImages(
  deps: ChatDeps,
  target: ChatTarget,
  images: readonly GeneratedImage[],
  stem: string,
  comment: ResultText,
): Promise<UploadResult> {
  const { surface } = deps;
  const { maxFilesPerMessage, maxUploadBytes } = surface.limits;
  const tag = resultTag(images.map((image) => image.bytes));
  const files = images.map((image, index) => ({
    name: imageFileName(stem, index + 1, image.extension, tag),
    mimeType: image.mimeType,
    bytes: image.bytes,
  }));
  const fitting = files.filter((file) => file.bytes.byteLength <= maxUploadBytes);
  for (const batch of batches(fitting, Math.max(1, maxFilesPerMessage), maxUploadBytes)) {
    const numbers = await deps.numberImages?.(batch);
    const text = fitted(
      deps,
      numbers === undefined || comment.numbered === undefined ? comment.text : comment.numbered(numbers),
    );
    await pacedCall(deps, paceKeyOf(surface, 'upload', target), 'post', () => surface.uploadFiles(target, batch, text));
  }
  return { uploaded: fitting.length, tooLarge: files.length - fitting.length, limitBytes: maxUploadBytes };
}

/**
 * Uploads the images and says how it went: the result (every image over the
 * limit is a result too: the job's words say which request, and the limit), or
 * the human answer when the platform refused.
 */
export async function deliverImages(
  deps: ChatDeps,
  target: ChatTarget,
  images: readonly GeneratedImage[],
  stem: string,
  comment: ResultText,
): Promise<{ ok: true; result: UploadResult } | { ok: false; answer: string }> {
  try {
    const result = await uploadImages(deps, target, images, stem, comment);
    deps.logger.info({ uploaded: result.uploaded, tooLarge: result.tooLarge }, 'images uploaded');
    return { ok: true, result };
  } catch (error) {
    deps.logger.error({ err: error }, 'image upload failed');
    return { ok: false, answer: copy.uploadFailed };
  }
}
