import { copy } from '../copy/copy.js';
import type { QuotaConfig } from '../config/load-config.js';
import type { JobQueue, QueuedJob } from '../scheduling/job-queue.js';
import { DEFAULT_LANE_LIMITS, type JobLane } from '../scheduling/lane-limits.js';
import { QueueUnavailableError } from '../scheduling/queue-unavailable-error.js';
import type { UserShares } from '../scheduling/user-shares.js';
import type { ChatLogger } from '../surface/ports.js';
import type { BotRuntime } from '../runtime/bot-runtime.js';
import { type Platform, type Store, StoreUnavailableError } from '../store/index.js';
import type { PlaceSettings } from '../settings/place-settings.js';
import { jobSettingsOf } from '../settings/job-settings.js';
import type { ResolvedSettings } from '../settings/resolve-settings.js';
import { type ChatJob, settingsPlaceOf, type SurfaceFactory } from './chat-job.js';
import { exhausted, limited, quotaStatus, secondsToUtcMidnight } from './daily-quota.js';
import {
  anyImageLimit,
  budgetScope,
  budgetWhere,
  giveBackReservation,
  holderOf,
  type ImageLimits,
  imageLimitRefusal,
  imagesOf,
  reserveImages,
} from './image-admission.js';
import { inputProblem } from './input-problem.js';
import type { IntakeRefusal } from '../metrics/metrics.js';
import type { IntakeResult, JobIntake, SubmitOptions } from './job-intake.js';
import { toNewJob } from './parse-chat-job.js';
import { PlacesInLine } from './places-in-line.js';

/** Each user's places counted across processes (Redis), instead of this process's scheduler. */
export interface SharedPlaces {
  shares: UserShares;
  /** Places one user may hold per lane, running or waiting, in the whole deployment. */
  perUser: Readonly<Record<JobLane, number>>;
  /** A place held longer than this frees itself (a process died holding it). */
  ttlMs: number;
}

export interface ChatJobIntakeOptions {
  store: Store;
  queue: JobQueue;
  runtime: BotRuntime;
  quota: QuotaConfig;
  logger: ChatLogger;
  /** Set when workers in other processes run the jobs: the user's share is counted there. */
  places?: SharedPlaces | undefined;
  /**
   * Each place's settings, resolved once per job and recorded in it; `enabled` and the budgets
   * admit it. Without them, jobs run on the operator's defaults, always enabled, with no budget.
   */
  settings?: PlaceSettings | undefined;
  now?: () => Date;
}

/** A refusal's private answer and its reason for the metrics. */
interface Refusal {
  answer: string;
  reason: IntakeRefusal;
}

/** The images an image job asks for, and the daily limits that hold them. */
interface ImagesAsked {
  count: number;
  limits: ImageLimits;
}

/** Imagine jobs, edits and a result's buttons run in the image lane; conversations stream (their tools take image slots as they run). */
export function laneOf(kind: string): JobLane {
  return kind === 'mention' ? 'stream' : 'image';
}

/** The queue entry of a job: its id and routing, no content. */
export function queuedJob(job: { id: string; kind: string; platform: Platform; userId: string }): QueuedJob {
  return { id: job.id, lane: laneOf(job.kind), platform: job.platform, userId: job.userId };
}

/**
 * Ingress's door (JobIntake): the bot is not stopping, the request makes
 * sense (inputProblem), genbot is on where it was asked, the user's daily
 * quotas and the workspace's budgets are not passed, their share of the queue
 * is not taken; then the job is recorded with the place's settings (a repeat
 * delivery is found there), its images held, and it is queued. Any refusal is
 * a private answer and sends nothing; only one that lost the race for the last
 * images of a limit leaves its record behind, ended as refused.
 */
export class ChatJobIntake implements JobIntake {
  readonly #options: ChatJobIntakeOptions;
  #places: PlacesInLine | undefined;

  constructor(options: ChatJobIntakeOptions) {
    this.#options = options;
  }

  /**
   * From now on, the user of a job that has to wait for a worker is told its
   * place in line through these surfaces (the bots' own, once they exist).
   */
  showPlacesOn(surfaces: readonly SurfaceFactory[]): void {
    const { store, runtime, logger } = this.#options;
    this.#places = new PlacesInLine({ surfaces, channels: runtime.channels, jobs: store.jobs, logger });
  }

  submit(job: ChatJob, options: SubmitOptions = {}): Promise<IntakeResult> {
    const { runtime } = this.#options;
    return runtime.submissions.run(async () => {
      // A submission often resumes after I/O that many share (a user's name, a file looked up), all at once.
      await runtime.turns.take();
      return this.#submit(job, options);
    });
  }

  async #submit(asked: ChatJob, options: SubmitOptions): Promise<IntakeResult> {
    const { store, runtime, logger } = this.#options;
    if (!runtime.accepting) return { accepted: false, answer: copy.restarting, reason: 'stopping' };
    const problem = inputProblem(asked);
    if (problem !== undefined) return { accepted: false, answer: problem, reason: 'invalid' };
    try {
      const refused = (refusal: Refusal) => this.#refused(asked.id, refusal);
      const resolved = await this.#options.settings?.resolve(settingsPlaceOf(asked));
      if (resolved !== undefined && !resolved.values.enabled) {
        logger.info({ jobId: asked.id, channelId: asked.channelId }, 'job refused: genbot is turned off here');
        return refused({ answer: copy.disabledHere, reason: 'disabled' });
      }
      const job: ChatJob = resolved === undefined ? asked : { ...asked, settings: jobSettingsOf(resolved) };
      const tokens = await this.#tokensRefusal(job, resolved);
      if (tokens !== undefined) return refused(tokens);
      const images = this.#imagesAsked(job, resolved);
      // Checked before anything is recorded, so a refusal leaves nothing; held once the job is recorded.
      const over =
        images === undefined
          ? undefined
          : await imageLimitRefusal(store.usage, holderOf(job), images.count, images.limits, this.#now());
      if (over !== undefined) {
        logger.info({ jobId: job.id, reason: over.reason }, 'job refused: past a daily image limit');
        return refused(over);
      }
      return await this.#admitted(job, options, images);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError || error instanceof QueueUnavailableError)) throw error;
      logger.error({ err: error, jobId: asked.id }, 'job refused: the store or the queue is unavailable');
      return {
        accepted: false,
        answer: error instanceof QueueUnavailableError ? copy.queueUnavailable : copy.storeUnavailable,
        reason: error instanceof QueueUnavailableError ? 'queue_unavailable' : 'store_unavailable',
      };
    }
  }

  /**
   * A refusal, unless the job is a repeat delivery: that is found when the job is recorded, and
   * only a refusal asks first, so a repeat is never refused.
   */
  async #refused(jobId: string, refusal: Refusal): Promise<IntakeResult> {
    const known = await this.#options.store.jobs.get(jobId);
    return known === undefined ? { accepted: false, ...refusal } : { accepted: true, duplicate: true };
  }

  /**
   * Past the quotas and budgets as they stood: the share, the record, the images held (atomically:
   * of two processes admitting the last image, one refuses here), and the queue.
   */
  async #admitted(job: ChatJob, options: SubmitOptions, images: ImagesAsked | undefined): Promise<IntakeResult> {
    const { store, queue, logger } = this.#options;
    const lane = laneOf(job.input.kind);
    const refusal = await this.#shareRefusal(lane, job);
    if (refusal !== undefined) return this.#refused(job.id, { answer: refusal, reason: 'share' });
    const recorded = await store.jobs.record(toNewJob(job));
    if (!recorded.created) {
      // The place just taken is this job's own while it runs (a share counts a job once); else it goes back.
      if (recorded.job.id !== job.id || recorded.job.state === 'finished') await this.#giveBackPlace(lane, job);
      if (recorded.job.id === job.id) return { accepted: true, duplicate: true };
      logger.info({ jobId: job.id, running: recorded.job.id }, 'button pressed again while its first press runs');
      return { accepted: false, answer: copy.alreadyRunning, reason: 'already_running' };
    }
    if (images !== undefined) {
      const held = await reserveImages(store.usage, holderOf(job), images.count, images.limits, this.#now());
      if (!held.ok) {
        logger.info({ jobId: job.id, reason: held.reason }, 'job refused: another took the last images of a limit');
        await store.jobs.finish(job.id, 'rejected', held.reason);
        await this.#giveBackPlace(lane, job);
        return { accepted: false, answer: held.answer, reason: held.reason };
      }
    }
    let queued = false;
    try {
      await this.#beforeQueue(job, options);
      await this.#enqueue(job);
      queued = true;
    } finally {
      // Held for a job that failed on its way to the queue: given back.
      if (!queued && images !== undefined) await this.#giveBackImages(job.id, images.count);
    }
    const position = await queue.position(job.id).catch(() => undefined);
    // Taken by a worker already (0), its own messages say where it stands.
    if (position !== undefined && position > 0) this.#places?.show(job, position);
    return { accepted: true, duplicate: false, position };
  }

  #now(): Date {
    return this.#options.now?.() ?? new Date();
  }

  /**
   * A conversation spends chat tokens: refused when the person's daily quota or the workspace's
   * budget is used up. Neither limit set: nothing is read (a query per request saved).
   */
  async #tokensRefusal(job: ChatJob, resolved: ResolvedSettings | undefined): Promise<Refusal | undefined> {
    const { store, logger } = this.#options;
    if (job.input.kind !== 'mention') return undefined;
    const now = this.#now();
    if (limited(this.#options.quota, 'chat tokens')) {
      const spent = exhausted(await quotaStatus(store.usage, job, this.#options.quota), 'chat tokens');
      if (spent !== undefined) {
        logger.info({ jobId: job.id, quota: spent.quota, limit: spent.limit }, 'job refused: daily quota used up');
        return { answer: copy.quotaReached(spent.quota, spent.limit, secondsToUtcMidnight(now)), reason: 'quota' };
      }
    }
    const budget = resolved?.values.budget_chat_tokens_per_day;
    if (budget === undefined) return undefined;
    const { today } = await store.usage.totals(budgetScope(job));
    if (today.inputTokens + today.outputTokens < budget) return undefined;
    logger.info({ jobId: job.id, budget }, 'job refused: the workspace used its chat token budget');
    return {
      answer: copy.budgetReached('chat tokens', budget, 0, budgetWhere(job), secondsToUtcMidnight(now)),
      reason: 'budget',
    };
  }

  /** The images an image job asks for and the daily limits they are held to; undefined when none is held. */
  #imagesAsked(job: ChatJob, resolved: ResolvedSettings | undefined): ImagesAsked | undefined {
    const count = imagesOf(job);
    const limits = {
      userPerDay: this.#options.quota.imagesPerDay,
      workspacePerDay: resolved?.values.budget_images_per_day,
    };
    // No limit on images: nothing to read or hold (a query and a write per request saved).
    return count === 0 || !anyImageLimit(limits) ? undefined : { count, limits };
  }

  async #giveBackImages(jobId: string, images: number): Promise<void> {
    await this.#options.store.usage
      .releaseImages(jobId, images)
      .catch((error: unknown) =>
        this.#options.logger.warn({ err: error, jobId }, 'could not give back the images held for a job'),
      );
  }

  async withdraw(jobId: string): Promise<void> {
    const { store, places, logger } = this.#options;
    try {
      // Only while queued: a worker that claimed the job stops it through the runtime's cancellation.
      if (!(await store.jobs.finish(jobId, 'rejected', 'cancelled', { onlyQueued: true }))) return;
      logger.info({ jobId }, 'trigger deleted while its job waited in line: not run');
      const record = await store.jobs.get(jobId);
      if (record === undefined) return;
      await places?.shares.release(laneOf(record.kind), record.userId, jobId);
      await giveBackReservation(store.usage, record, logger);
      await this.#places?.withdrawn(record);
    } catch (error) {
      logger.warn({ err: error, jobId }, 'could not withdraw a job whose trigger was deleted');
    }
  }

  /** The answer when the user holds their share of the lane already; undefined when the job may go in line. */
  async #shareRefusal(lane: JobLane, job: ChatJob): Promise<string | undefined> {
    const { runtime, places } = this.#options;
    if (places === undefined) {
      const refusal = runtime.scheduler.refusal(lane, job.userId);
      if (refusal === undefined) return undefined;
      return refusal.reason === 'shutting_down'
        ? copy.restarting
        : copy.busy(refusal.reason, refusal.retryAfterSeconds);
    }
    if (await places.shares.take(lane, job.userId, job.id, places.perUser[lane], places.ttlMs)) return undefined;
    return copy.busy('user_limit', DEFAULT_LANE_LIMITS[lane].typicalDurationMs / 1000);
  }

  async #giveBackPlace(lane: JobLane, job: ChatJob): Promise<void> {
    await this.#options.places?.shares.release(lane, job.userId, job.id);
  }

  /** Ingress's step between admission and the queue; when it fails, the record ends unrun and the place goes back. */
  async #beforeQueue(job: ChatJob, options: SubmitOptions): Promise<void> {
    if (options.beforeQueue === undefined) return;
    try {
      await options.beforeQueue();
    } catch (error) {
      await this.#options.store.jobs.finish(job.id, 'rejected', 'not acknowledged').catch(() => undefined);
      await this.#giveBackPlace(laneOf(job.input.kind), job).catch(() => undefined);
      throw error;
    }
  }

  /** Queues a recorded job; when the queue cannot take it, the record ends as refused, so no worker runs it later. */
  async #enqueue(job: ChatJob): Promise<void> {
    const { store, queue } = this.#options;
    try {
      await queue.add(queuedJob({ ...job, kind: job.input.kind }), { firstTime: true });
    } catch (error) {
      await store.jobs.finish(job.id, 'rejected', 'queue unavailable').catch(() => undefined);
      await this.#giveBackPlace(laneOf(job.input.kind), job).catch(() => undefined);
      throw error;
    }
  }
}
