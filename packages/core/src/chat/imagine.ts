import { parseAspectRatio } from '../genai/aspect-ratio.js';
import { UsageError } from '../errors.js';
import { ASPECT_RATIOS, type AspectRatio } from '../genai/types.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { imageFileStem } from '../files/file-names.js';
import { type ImageJob, type ImageJobPresentation, resultText, runImageJob } from './image-job.js';
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

/** An `/imagine` whose prompt and aspect ratio were checked (`checkImagine`): the prompt trimmed, the ratio one we know. */
export interface CheckedImagine {
  input: ImagineInput;
  prompt: string;
  aspectRatio: AspectRatio | undefined;
}

/** An `/imagine` checked once: ready to run, or the short answer that refuses it. */
export type ImagineCheck = { ok: true; checked: CheckedImagine } | { ok: false; answer: string };

/** Checks an `/imagine` as asked: the one place its rules live. */
export function checkImagine(input: ImagineInput): ImagineCheck {
  const prompt = input.prompt.trim();
  if (prompt === '') return { ok: false, answer: copy.emptyPrompt };
  if (prompt.length > MAX_PROMPT_CHARS)
    return { ok: false, answer: copy.promptTooLong(prompt.length, MAX_PROMPT_CHARS) };
  const given = input.aspectRatio?.trim();
  if (given === undefined || given === '') return { ok: true, checked: { input, prompt, aspectRatio: undefined } };
  try {
    return { ok: true, checked: { input, prompt, aspectRatio: parseAspectRatio(given) } };
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
  const result = checkImagine(input);
  return result.ok ? undefined : result.answer;
}

/**
 * `/imagine`: bad input gets a short answer and nothing is sent; otherwise
 * the image job (`imagineChecked`). Never rejects.
 */
export function imagine(
  input: ImagineInput,
  deps: ChatDeps,
  signal?: AbortSignal,
  presentation: ImageJobPresentation = {},
): Promise<ChatOutcome> {
  const result = checkImagine(input);
  if (result.ok) return imagineChecked(result.checked, deps, signal, presentation);
  return runImageJob(
    {
      ...imageJob(input, input.prompt, undefined, presentation, deps),
      refusal: result.answer,
    },
    deps,
    signal,
  );
}

/**
 * An `/imagine` already checked (a job's worker checks it once, as it plans
 * the job), as an image job (`runImageJob`): a progress message naming the
 * prompt (its place in line while it waits), the images uploaded with the
 * prompt as their comment, and a done line or a short human error. Never rejects.
 */
export function imagineChecked(
  checked: CheckedImagine,
  deps: ChatDeps,
  signal?: AbortSignal,
  presentation: ImageJobPresentation = {},
): Promise<ChatOutcome> {
  return runImageJob(imageJob(checked.input, checked.prompt, checked.aspectRatio, presentation, deps), deps, signal);
}

function imageJob(
  input: ImagineInput,
  prompt: string,
  aspectRatio: AspectRatio | undefined,
  presentation: ImageJobPresentation,
  deps: ChatDeps,
): ImageJob<{ prompt: string; aspectRatio?: AspectRatio; count?: number }> {
  return {
    name: 'imagine',
    target: input.target,
    userId: input.userId,
    asked: input.prompt,
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
        // The place's `images` (a Re-roll too: the same request again, with the count of the time of the press).
        ...(deps.config.images === undefined || deps.config.images === 1 ? {} : { count: deps.config.images }),
        ...(input.seed === undefined ? {} : { seed: input.seed }),
      },
    }),
    generate: (request, jobSignal) =>
      deps.images.generateImages(deps.config.imageModel, request, jobSignal === undefined ? {} : { signal: jobSignal }),
    stem: imageFileStem({ prompt }),
    comment: resultText(presentation, copy.imageComment(prompt)),
  };
}
