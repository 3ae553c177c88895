import { parseAspectRatio } from '../genai/aspect-ratio.js';
import { UsageError } from '../genai/errors.js';
import { ASPECT_RATIOS, type AspectRatio } from '../genai/types.js';
import { copy } from './copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { endFailedImageJob } from './image-job-failure.js';
import { ProgressMessage } from '../jobs/progress-message.js';
import { runModelCall } from '../jobs/run-model-call.js';
import { say } from './status-message.js';
import type { ChatTarget } from './surface.js';
import { deliverImages } from './upload-images.js';

export const MAX_PROMPT_CHARS = 2_000;

export interface ImagineInput {
  /** Where the progress message and the images go. */
  target: ChatTarget;
  prompt: string;
  /** As the user typed it (`16:9`); validated here. */
  aspectRatio?: string | undefined;
  /** The platform user asking; with `deps.scheduler`, the generation waits its turn under their share. */
  userId?: string | undefined;
}

type Checked = { ok: true; prompt: string; aspectRatio: AspectRatio | undefined } | { ok: false; answer: string };

function check(input: ImagineInput): Checked {
  const prompt = input.prompt.trim();
  if (prompt === '') return { ok: false, answer: copy.emptyPrompt };
  if (prompt.length > MAX_PROMPT_CHARS) return { ok: false, answer: copy.promptTooLong(prompt.length, MAX_PROMPT_CHARS) };
  const given = input.aspectRatio?.trim();
  if (given === undefined || given === '') return { ok: true, prompt, aspectRatio: undefined };
  try {
    return { ok: true, prompt, aspectRatio: parseAspectRatio(given) };
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, answer: copy.badAspectRatio(given, ASPECT_RATIOS) };
    throw error;
  }
}

/**
 * `/imagine`: bad input gets a short answer and nothing is sent; otherwise a
 * progress message naming the prompt (while the call waits its turn: its
 * place in line, kept current), the images uploaded with the prompt as their
 * comment, and the progress message turned into a done line or a short human
 * error. Refused by the scheduler: a short answer saying when to try again.
 * Never rejects: failures are logged and shown.
 */
export async function imagine(input: ImagineInput, deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> {
  let progress: ProgressMessage | undefined;
  try {
    const checked = check(input);
    if (!checked.ok) {
      await say(deps, input.target, checked.answer);
      return 'rejected';
    }
    const { prompt, aspectRatio } = checked;
    const shown = new ProgressMessage(deps, input.target);
    progress = shown;
    const scheduling = {
      lane: 'image',
      userId: input.userId,
      signal,
      onQueued: (position: number) => shown.queued(copy.imagineQueued(prompt, position)),
    } as const;
    // The upload is part of the job: the lane's cap then bounds the image
    // bytes held in memory, not only the calls to the model.
    const uploaded = await runModelCall(deps, scheduling, async (jobSignal) => {
      await shown.started(copy.imagining(prompt));
      const images = await deps.images.generateImages(
        deps.config.imageModel,
        { prompt, ...(aspectRatio === undefined ? {} : { aspectRatio }) },
        jobSignal === undefined ? {} : { signal: jobSignal },
      );
      return deliverImages(deps, input.target, images, prompt, copy.imageComment(prompt));
    });
    await shown.finish(uploaded.ok ? copy.imagineDone(prompt, uploaded.result) : uploaded.answer);
    return uploaded.ok ? 'done' : 'failed';
  } catch (error) {
    return endFailedImageJob(error, {
      name: 'imagine',
      deps,
      progress,
      signal,
      failed: (description) => copy.imagineFailed(input.prompt, description),
    });
  }
}
