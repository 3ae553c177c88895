import type { GeneratedImage } from '../genai/types.js';
import { systemClock } from './clock.js';
import { copy } from './copy.js';
import type { ChatDeps } from './deps.js';
import { withRetries } from './retry.js';
import { fitted } from './status-message.js';
import type { ChatTarget, UploadFile } from './surface.js';

export interface UploadResult {
  uploaded: number;
  /** Images over the surface's upload limit, left out. */
  tooLarge: number;
}

/** A file-name stem from the prompt: `a-lighthouse-at-dusk`. */
export function fileStem(prompt: string): string {
  const stem = prompt
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return stem === '' ? 'image' : stem;
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
 * Uploads every image, named by its real type, as few messages as the
 * surface allows, each with `comment` (standard Markdown) as its text.
 */
export async function uploadImages(
  deps: ChatDeps,
  target: ChatTarget,
  images: readonly GeneratedImage[],
  prompt: string,
  comment: string,
): Promise<UploadResult> {
  const { surface } = deps;
  const { maxFilesPerMessage, maxUploadBytes } = surface.limits;
  const stem = fileStem(prompt);
  const files = images.map((image, index) => ({
    name: `${stem}-${index + 1}.${image.extension}`,
    mimeType: image.mimeType,
    bytes: image.bytes,
  }));
  const fitting = files.filter((file) => file.bytes.byteLength <= maxUploadBytes);
  const text = fitted(deps, comment);
  for (const batch of batches(fitting, Math.max(1, maxFilesPerMessage), maxUploadBytes)) {
    await withRetries(() => surface.uploadFiles(target, batch, text), deps.clock ?? systemClock);
  }
  return { uploaded: fitting.length, tooLarge: files.length - fitting.length };
}

/** Uploads the images and says how it went: the result, or the human answer when the platform refused. */
export async function deliverImages(
  deps: ChatDeps,
  target: ChatTarget,
  images: readonly GeneratedImage[],
  prompt: string,
  comment: string,
): Promise<{ ok: true; result: UploadResult } | { ok: false; answer: string }> {
  try {
    const result = await uploadImages(deps, target, images, prompt, comment);
    deps.logger.info({ uploaded: result.uploaded, tooLarge: result.tooLarge }, 'images uploaded');
    if (result.uploaded === 0) return { ok: false, answer: copy.tooLargeToUpload(result.tooLarge) };
    return { ok: true, result };
  } catch (error) {
    deps.logger.error({ err: error }, 'image upload failed');
    return { ok: false, answer: copy.uploadFailed };
  }
}
