import { parseAspectRatio } from '../genai/aspect-ratio.js';
import { UsageError } from '../errors.js';
import { ASPECT_RATIOS, type AspectRatio } from '../genai/types.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { imageFileStem } from '../files/file-names.js';
import { type ImageJobPresentation, runImageJob } from './image-job.js';
import type { ChatTarget } from '../surface/surface.js';

export const MAX_PROMPT_CHARS = 2_000;

export interface ImagineInput {
  /** Where the progress message and the images go. */
  target: ChatTarget;
  prompt: string;
  /** As the user typed it (`16:9`); validated here. */
  aspectRatio?: string | undefined;
  /** The platform user asking; with `deps.scheduler`, the generation waits its turn under their share. */
  userId?: string | undefined;
  /** Sent as the service's seed: a re-roll's fresh one asks for another picture of the same prompt. */
  seed?: number | undefined;
}

type Checked = { ok: true; prompt: string; aspectRatio: AspectRatio | undefined } | { ok: false; answer: string };

function check(input: ImagineInput): Checked {
  const prompt = input.prompt.trim();
  if (prompt === '') return { ok: false, answer: copy.emptyPrompt };
  if (prompt.length > MAX_PROMPT_CHARS)
    return { ok: false, answer: copy.promptTooLong(prompt.length, MAX_PROMPT_CHARS) };
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
 * What is wrong with an `/imagine` as asked (empty, too long, an aspect ratio
 * we do not know), in words for the person alone; undefined when nothing is.
 * Ingress asks this before anything is recorded, so the answer stays private.
 */
export function imagineInputProblem(input: ImagineInput): string | undefined {
  const checked = check(input);
  return checked.ok ? undefined : checked.answer;
}

/**
 * `/imagine`: bad input gets a short answer and nothing is sent; otherwise
 * the image job (`runImageJob`): a progress message naming the prompt (its
 * place in line while it waits), the images uploaded with the prompt as their
 * comment, and a done line or a short human error. Never rejects.
 */
export function imagine(
  input: ImagineInput,
  deps: ChatDeps,
  signal?: AbortSignal,
  presentation: ImageJobPresentation = {},
): Promise<ChatOutcome> {
  const checked = check(input);
  const prompt = checked.ok ? checked.prompt : input.prompt;
  const aspectRatio = checked.ok ? checked.aspectRatio : undefined;
  return runImageJob(
    {
      name: 'imagine',
      target: input.target,
      userId: input.userId,
      asked: input.prompt,
      refusal: checked.ok ? undefined : checked.answer,
      words: {
        working: copy.imagining(prompt),
        queued: (position) => copy.imagineQueued(prompt, position),
        done: (result) => copy.imagineDone(prompt, result),
        failed: (description) => copy.imagineFailed(input.prompt, description),
        ...presentation.words,
      },
      input: async () => ({
        ok: true,
        value: {
          prompt,
          ...(aspectRatio === undefined ? {} : { aspectRatio }),
          ...(input.seed === undefined ? {} : { seed: input.seed }),
        },
      }),
      generate: (request, jobSignal) =>
        deps.images.generateImages(
          deps.config.imageModel,
          request,
          jobSignal === undefined ? {} : { signal: jobSignal },
        ),
      stem: imageFileStem({ prompt }),
      comment: presentation.comment ?? copy.imageComment(prompt),
    },
    deps,
    signal,
  );
}
