import { isImageAttachment } from '../files/attachments.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { imageFileStem } from '../files/file-names.js';
import { type ImageJobPresentation, resultText, runImageJob } from './image-job.js';
import { MAX_PROMPT_CHARS } from './imagine.js';
import { declaredTooLarge, loadSourceImage } from './source-image.js';
import { MAX_INLINE_IMAGE_BYTES } from '../genai/images.js';
import type { AttachmentRef, ChatTarget } from '../surface/surface.js';

export interface EditImageInput {
  /** The thread the edited image goes to. */
  target: ChatTarget;
  instruction: string;
  /**
   * Attachments in order of preference: on the mention, on the message it
   * replies to, then the thread's, latest first. The first image is edited.
   */
  candidates: readonly AttachmentRef[];
  /** The platform user asking; with `deps.scheduler`, the edit waits its turn under their share. */
  userId?: string | undefined;
  /** Sent as the service's seed: a variation's or a re-roll's fresh one asks for another result. */
  seed?: number | undefined;
}

/** The image to edit, or why there is none to send. */
function pickSource(
  instruction: string,
  candidates: readonly AttachmentRef[],
): { ok: true; source: AttachmentRef } | { ok: false; answer: string } {
  if (instruction === '') return { ok: false, answer: copy.emptyInstruction };
  if (instruction.length > MAX_PROMPT_CHARS) {
    return { ok: false, answer: copy.promptTooLong(instruction.length, MAX_PROMPT_CHARS) };
  }
  const source = candidates.find(isImageAttachment);
  if (source !== undefined) return { ok: true, source };
  const first = candidates[0];
  return { ok: false, answer: first === undefined ? copy.noImageToEdit : copy.notAnImage(first.name) };
}

/**
 * Edits the first image among the candidates with the instruction, as an
 * image job (`runImageJob`): admitted first (a refusal is one short answer;
 * while it waits, its place in line); only then is the source downloaded and
 * checked from its bytes (type, size, what its header declares) before
 * anything is sent; the result is uploaded into the thread, and the progress
 * message turns into a done line or a short human error. Never rejects.
 */
export function editImage(
  input: EditImageInput,
  deps: ChatDeps,
  signal?: AbortSignal,
  presentation: ImageJobPresentation = {},
): Promise<ChatOutcome> {
  const instruction = input.instruction.trim();
  const picked = pickSource(instruction, input.candidates);
  const refusal = picked.ok ? declaredTooLarge(picked.source) : picked.answer;
  return runImageJob(
    {
      name: 'image edit',
      target: input.target,
      userId: input.userId,
      asked: instruction,
      refusal: picked.ok && refusal === undefined ? undefined : (refusal ?? copy.noImageToEdit),
      words: {
        working: copy.editing(instruction),
        queued: (position) => copy.editQueued(instruction, position),
        done: (result) => copy.editDone(instruction, result),
        failed: (description) => copy.editFailed(instruction, description),
        ...presentation.words,
      },
      // Unknown sizes count as the largest image the service takes inline.
      inputBytes: picked.ok ? (picked.source.size ?? MAX_INLINE_IMAGE_BYTES) : undefined,
      input: async (jobSignal) => {
        if (!picked.ok) return { ok: false, answer: picked.answer };
        const loaded = await loadSourceImage(deps, picked.source, jobSignal);
        return loaded.ok ? { ok: true, value: loaded.image } : { ok: false, answer: loaded.answer };
      },
      generate: (image, jobSignal) =>
        deps.images.generateImages(
          deps.config.imageModel,
          { prompt: instruction, image, ...(input.seed === undefined ? {} : { seed: input.seed }) },
          jobSignal === undefined ? {} : { signal: jobSignal },
        ),
      stem:
        presentation.stem ??
        imageFileStem({ prompt: instruction, sourceName: picked.ok ? picked.source.name : undefined }),
      comment: resultText(presentation, copy.editComment(instruction)),
    },
    deps,
    signal,
  );
}
