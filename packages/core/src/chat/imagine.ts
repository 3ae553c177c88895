import { parseAspectRatio } from '../genai/aspect-ratio.js';
import { describeError } from '../genai/describe-error.js';
import { UsageError } from '../genai/errors.js';
import { ASPECT_RATIOS, type AspectRatio } from '../genai/types.js';
import { copy } from './copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { say, StatusMessage } from './status-message.js';
import type { ChatTarget } from './surface.js';
import { deliverImages } from './upload-images.js';

export const MAX_PROMPT_CHARS = 2_000;

export interface ImagineInput {
  /** Where the progress message and the images go. */
  target: ChatTarget;
  prompt: string;
  /** As the user typed it (`16:9`); validated here. */
  aspectRatio?: string | undefined;
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
 * progress message naming the prompt at once, the images uploaded with the
 * prompt as their comment, and the progress message turned into a done line
 * or a short human error. Never rejects: failures are logged and shown.
 */
export async function imagine(input: ImagineInput, deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> {
  const log = deps.logger;
  let status: StatusMessage | undefined;
  try {
    const checked = check(input);
    if (!checked.ok) {
      await say(deps, input.target, checked.answer);
      return 'rejected';
    }
    const { prompt, aspectRatio } = checked;
    status = await StatusMessage.post(deps, input.target, copy.imagining(prompt));
    const images = await deps.images.generateImages(
      deps.config.imageModel,
      { prompt, ...(aspectRatio === undefined ? {} : { aspectRatio }) },
      signal === undefined ? {} : { signal },
    );
    const uploaded = await deliverImages(deps, input.target, images, prompt, copy.imageComment(prompt));
    await status.update(uploaded.ok ? copy.imagineDone(prompt, uploaded.result) : uploaded.answer);
    return uploaded.ok ? 'done' : 'failed';
  } catch (error) {
    log.error({ err: error }, 'imagine failed');
    await status?.update(copy.imagineFailed(input.prompt, describeError(error)));
    return 'failed';
  }
}
