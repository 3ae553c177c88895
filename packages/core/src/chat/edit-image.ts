import { UsageError } from '../genai/errors.js';
import { MAX_INLINE_IMAGE_BYTES, readInputImage } from '../genai/images.js';
import type { InputImage } from '../genai/types.js';
import { isImageAttachment } from './attachments.js';
import { systemClock } from './clock.js';
import { copy } from './copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { endFailedImageJob } from './image-job-failure.js';
import { MAX_PROMPT_CHARS } from './imagine.js';
import { withRetries } from './retry.js';
import { ProgressMessage } from '../jobs/progress-message.js';
import { runModelCall } from '../jobs/run-model-call.js';
import { say } from './status-message.js';
import type { AttachmentRef, ChatTarget } from './surface.js';
import { deliverImages } from './upload-images.js';

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

type Source = { ok: true; image: InputImage } | { ok: false; answer: string };

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Downloads the source and checks it from its bytes; a refusal is a human answer and nothing is sent. */
async function loadSource(deps: ChatDeps, source: AttachmentRef, signal: AbortSignal | undefined): Promise<Source> {
  if (source.size !== undefined && source.size > MAX_INLINE_IMAGE_BYTES) {
    const reason = `it is ${megabytes(source.size)}, and the limit is ${megabytes(MAX_INLINE_IMAGE_BYTES)}.`;
    return { ok: false, answer: copy.unsupportedImage(source.name, reason) };
  }
  let bytes: Uint8Array;
  try {
    const options = signal === undefined ? {} : { signal };
    bytes = (await withRetries(() => deps.surface.download(source, options), deps.clock ?? systemClock)).bytes;
  } catch (error) {
    deps.logger.error({ err: error, attachment: source.name }, 'attachment download failed');
    return { ok: false, answer: copy.downloadFailed(source.name) };
  }
  try {
    return { ok: true, image: await readInputImage(bytes) };
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, answer: copy.unsupportedImage(source.name, error.message) };
    throw error;
  }
}

/**
 * Edits the first image among the candidates with the instruction: a
 * progress message at once, the source checked (type and size, from its
 * bytes) before anything is sent, the result uploaded into the thread, and
 * the progress message turned into a done line or a short human error. While
 * the call waits its turn the progress message shows its place in line; a
 * scheduler refusal says when to try again. Never rejects: failures are
 * logged and shown.
 */
export async function editImage(input: EditImageInput, deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> {
  const instruction = input.instruction.trim();
  let progress: ProgressMessage | undefined;
  try {
    const picked = pickSource(instruction, input.candidates);
    if (!picked.ok) {
      await say(deps, input.target, picked.answer);
      return 'rejected';
    }
    const shown = new ProgressMessage(deps, input.target);
    progress = shown;
    const working = copy.editing(instruction);
    await shown.started(working);
    const loaded = await loadSource(deps, picked.source, signal);
    if (!loaded.ok) {
      await shown.finish(loaded.answer);
      return 'rejected';
    }
    const scheduling = {
      lane: 'image',
      userId: input.userId,
      signal,
      onQueued: (position: number) => shown.queued(copy.editQueued(instruction, position)),
    } as const;
    // Uploading inside the job, as imagine does, keeps image bytes under the lane's cap.
    const uploaded = await runModelCall(deps, scheduling, async (jobSignal) => {
      // Back to the working text when it waited in line; nothing changes otherwise.
      await shown.started(working);
      const images = await deps.images.generateImages(
        deps.config.imageModel,
        { prompt: instruction, image: loaded.image },
        jobSignal === undefined ? {} : { signal: jobSignal },
      );
      return deliverImages(deps, input.target, images, instruction, copy.editComment(instruction));
    });
    await shown.finish(uploaded.ok ? copy.editDone(instruction, uploaded.result) : uploaded.answer);
    return uploaded.ok ? 'done' : 'failed';
  } catch (error) {
    return endFailedImageJob(error, {
      name: 'image edit',
      deps,
      progress,
      signal,
      failed: (description) => copy.editFailed(instruction, description),
    });
  }
}
