import { describeError, type ErrorDescription, isExpectedFailure } from '../genai/describe-error.js';
import { releaseBytes } from '../genai/owned-bytes.js';
import type { GeneratedImage } from '../genai/types.js';
import { JobRejectedError } from '../scheduling/job-rejected-error.js';
import { stoppedEarly } from '../scheduling/stopped-early.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import { ProgressMessage } from './progress-message.js';
import { runModelCall } from './run-model-call.js';
import { say, tellPrivatelyUnlessShown } from './status-message.js';
import type { ChatTarget } from '../surface/surface.js';
import { deliverImages, type ResultText, type UploadResult } from './upload-images.js';

/** What an image job says at each step, in standard Markdown. */
export interface ImageJobWords {
  working: string;
  queued(position: number): string;
  done(result: UploadResult): string;
  failed(description: ErrorDescription): string;
}

/**
 * How a job started from a result's button (or an edit of a version) shows
 * itself: its own words and the result's text (with the version lineage,
 * which may name the numbers its images get); anything not given is the use
 * case's own.
 */
export interface ImageJobPresentation {
  words?: Partial<ImageJobWords> | undefined;
  comment?: string | ((numbers: readonly number[]) => string) | undefined;
  /** The files' stem (`imageFileStem`), for a result a button asked for: named after its version, not its instruction. */
  stem?: string | undefined;
}

/** The result's text of a use case whose own is `own`: the presentation's where it gives one. */
export function resultText(presentation: ImageJobPresentation, own: string): ResultText {
  const { comment } = presentation;
  if (comment === undefined) return { text: own };
  return typeof comment === 'string' ? { text: comment } : { text: own, numbered: comment };
}

/** The input a job generates from: ready, or the short answer that refuses the job instead. */
export type JobInput<T> = { ok: true; value: T } | { ok: false; answer: string };

/** One image job (imagine, an edit), described by its steps; `runImageJob` runs them. */
export interface ImageJob<T> {
  /** For the logs: 'imagine', 'image edit'. */
  name: string;
  target: ChatTarget;
  /** The platform user asking; with `deps.scheduler`, the job waits its turn under their share. */
  userId: string | undefined;
  /** The prompt or instruction, kept in the note a restart leaves. */
  asked: string;
  /** Bad input found before anything else: answered with this alone, nothing sent. */
  refusal?: string | undefined;
  words: ImageJobWords;
  /**
   * Bytes the job's input holds in memory (an edit's source image, as the
   * platform declares it): with `deps.scheduler`, the job waits until that
   * much may be held, so large inputs are downloaded and sent a few at a time.
   */
  inputBytes?: number | undefined;
  /** Reads what the job needs once admitted (an edit downloads and checks its source). */
  input(signal: AbortSignal | undefined): Promise<JobInput<T>>;
  generate(input: T, signal: AbortSignal | undefined): Promise<GeneratedImage[]>;
  /** File name stem of the results (`imageFileStem`). */
  stem: string;
  /** Text of the messages the images are uploaded with. */
  comment: ResultText;
}

/** How a job ends: `standsAlone` when its result says it all and the progress message gives way to it. */
type Ending = { outcome: ChatOutcome; answer: string; standsAlone?: boolean };

/**
 * The skeleton every image job follows: a refusal answered at once; else the
 * job is admitted first (a scheduler refusal is one short answer saying when
 * to try again; while it waits, its progress message shows its place in
 * line); then, inside the job, its input is read, the model called and the
 * images uploaded (so the lane's cap also bounds the image bytes in memory),
 * and the progress message turns into a done line or a short human error
 * (where the result stands on its own, it gives way to the result instead).
 * Never rejects: failures are logged and shown.
 */
export async function runImageJob<T>(job: ImageJob<T>, deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> {
  let progress: ProgressMessage | undefined;
  try {
    if (job.refusal !== undefined) {
      await say(deps, job.target, job.refusal);
      return 'rejected';
    }
    const shown = new ProgressMessage(deps, job.target);
    progress = shown;
    let place: number | undefined;
    const scheduling = {
      lane: 'image',
      userId: job.userId,
      signal,
      onQueued: (position: number) => {
        const first = place === undefined;
        place = position;
        shown.queued(job.words.queued(position));
        // Told privately too when the channel is too busy to show the place in line soon.
        if (first)
          tellPrivatelyUnlessShown(
            deps,
            job.target,
            job.userId,
            () => job.words.queued(place ?? position),
            shown.onScreen,
          );
      },
    } as const;
    const ending = await runModelCall(deps, scheduling, async (jobSignal): Promise<Ending> => {
      // Back to the working text when it waited in line.
      await shown.started(job.words.working);
      const { scheduler } = deps;
      const release =
        job.inputBytes === undefined ? undefined : await scheduler?.holdInputBytes(job.inputBytes, jobSignal);
      try {
        const input = await job.input(jobSignal);
        if (!input.ok) return { outcome: 'rejected', answer: input.answer };
        const images = await job.generate(input.value, jobSignal);
        const uploaded = await deliverImages(deps, job.target, images, job.stem, job.comment).finally(() => {
          // The job owns its images and the surface only borrowed them for the upload (see `uploadFiles`).
          for (const image of images) releaseBytes(image.bytes);
        });
        if (!uploaded.ok) return { outcome: 'failed', answer: uploaded.answer };
        // Nothing shown is a failure, even though the words say why (`done` covers every image too large).
        return {
          outcome: uploaded.result.uploaded === 0 ? 'failed' : 'done',
          answer: job.words.done(uploaded.result),
          // Images left out for their size are told in the done line: it stays.
          standsAlone:
            deps.surface.resultStandsAlone === true && uploaded.result.uploaded > 0 && uploaded.result.tooLarge === 0,
        };
      } finally {
        release?.();
      }
    });
    if (ending.standsAlone === true) await shown.giveWay(copy.resultBelow);
    else await shown.finish(ending.answer);
    return ending.outcome;
  } catch (error) {
    return endFailed(error, job, deps, progress, signal);
  }
}

/**
 * How a job that threw ends, told in its progress message: a request withdrawn
 * says so where something is already on screen; a job the restart caught says
 * so, keeping what was asked; a scheduler refusal says when to try again;
 * anything else becomes a short human error.
 */
async function endFailed<T>(
  error: unknown,
  job: ImageJob<T>,
  deps: ChatDeps,
  progress: ProgressMessage | undefined,
  signal: AbortSignal | undefined,
): Promise<ChatOutcome> {
  const stopped = stoppedEarly(error, signal);
  if (stopped === 'handedOver') {
    // The worker that took the job over edits the same progress message from its recorded steps.
    deps.logger.info({ reason: String(signal?.reason) }, `${job.name} handed to another worker`);
    return 'failed';
  }
  if (stopped === 'cancelled') {
    deps.logger.info({ reason: String(signal?.reason) }, `${job.name} cancelled`);
    // Nothing on screen yet: nothing to say about a request the user withdrew.
    if (progress?.posted === true) await progress.finish(copy.cancelled);
    return 'failed';
  }
  if (stopped === 'restart') {
    deps.logger.info(
      { reason: String(signal?.aborted === true ? signal.reason : error) },
      `${job.name} stopped by a restart`,
    );
    // Posted even when nothing is on screen yet: a slash command has no other trace.
    await progress?.finish(copy.interruptedByRestart(job.asked));
    return error instanceof JobRejectedError ? 'rejected' : 'failed';
  }
  if (error instanceof JobRejectedError && error.reason !== 'shutting_down') {
    deps.logger.info(
      { reason: error.reason, retryAfterSeconds: error.retryAfterSeconds },
      `${job.name} refused by the scheduler`,
    );
    const answer = copy.busy(error.reason, error.retryAfterSeconds);
    const told = progress?.finish(answer);
    if (told !== undefined) tellPrivatelyUnlessShown(deps, job.target, job.userId, () => answer, told);
    await told;
    return 'rejected';
  }
  if (isExpectedFailure(error)) deps.logger.warn({ reason: error.message }, `${job.name} refused`);
  else deps.logger.error({ err: error }, `${job.name} failed`);
  await progress?.finish(job.words.failed(describeError(error)));
  return 'failed';
}
