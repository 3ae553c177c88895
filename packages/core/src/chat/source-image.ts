import { NotAnImageError } from '../genai/errors.js';
import { UsageError } from '../errors.js';
import { MAX_INLINE_IMAGE_BYTES, readInputImage } from '../genai/images.js';
import type { InputImage } from '../genai/types.js';
import type { AttachmentUnavailableError } from '../files/attachment-unavailable.js';
import { downloadAttachment, type AttachmentDownload } from './download-attachment.js';
import { systemClock } from '../time/clock.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps } from './deps.js';
import { imageHeaderProblem, type ImageHeaderProblem } from '../files/image-header.js';
import type { AttachmentRef } from '../surface/surface.js';

export type SourceImage = { ok: true; image: InputImage } | { ok: false; answer: string };

/** A refusal that needs no download: the platform declared a size past what can be sent. */
export function declaredTooLarge(source: AttachmentRef): string | undefined {
  if (source.size === undefined || source.size <= MAX_INLINE_IMAGE_BYTES) return undefined;
  return copy.unsupportedImage(source.name, copy.tooLargeReason(source.size, MAX_INLINE_IMAGE_BYTES));
}

function headerReason(problem: ImageHeaderProblem): string {
  switch (problem.kind) {
    case 'pixels':
      return copy.tooManyPixels(problem.width, problem.height, problem.maxMegapixels);
    case 'frames':
      return copy.tooManyFrames(problem.frames, problem.maxFrames);
    case 'unreadable':
      return copy.unreadableImageHeader;
  }
}

function unavailableAnswer(source: AttachmentRef, error: AttachmentUnavailableError): string {
  if (error.reason === 'too_large') {
    return copy.unsupportedImage(source.name, copy.tooLargeReason(error.size, MAX_INLINE_IMAGE_BYTES));
  }
  return copy.fileUnavailable(source.name, error.reason);
}

/**
 * Downloads the image to edit and checks it from its bytes (type, size, and
 * what its header declares) before anything is sent; a refusal is a short
 * human answer. Rejects only when aborted.
 */
export async function loadSourceImage(
  deps: ChatDeps,
  source: AttachmentRef,
  signal: AbortSignal | undefined,
): Promise<SourceImage> {
  const tooLarge = declaredTooLarge(source);
  if (tooLarge !== undefined) return { ok: false, answer: tooLarge };
  let fetched: AttachmentDownload;
  try {
    fetched = await downloadAttachment(deps.surface, source, deps.clock ?? systemClock, signal);
  } catch (error) {
    signal?.throwIfAborted();
    deps.logger.error({ err: error, attachment: source.name }, 'attachment download failed');
    return { ok: false, answer: copy.downloadFailed(source.name) };
  }
  if (!fetched.ok) {
    deps.logger.warn(
      { reason: fetched.error.reason, err: fetched.error, attachment: source.name },
      'attachment cannot be downloaded; not trying again',
    );
    return { ok: false, answer: unavailableAnswer(source, fetched.error) };
  }
  let image: InputImage;
  try {
    image = await readInputImage(fetched.file.bytes);
  } catch (error) {
    // Declared an image, but its bytes are not one we can send: said as for any file that is no image.
    if (error instanceof NotAnImageError) return { ok: false, answer: copy.notAnImage(source.name) };
    if (error instanceof UsageError) return { ok: false, answer: copy.unsupportedImage(source.name, error.message) };
    throw error;
  }
  const problem = await imageHeaderProblem(image.bytes);
  if (problem !== undefined) {
    deps.logger.warn({ problem, attachment: source.name }, 'image refused for what its header declares');
    return { ok: false, answer: copy.unsupportedImage(source.name, headerReason(problem)) };
  }
  return { ok: true, image };
}
