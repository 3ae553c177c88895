import { copy } from '../copy/copy.js';
import type { QuotaConfig } from '../config/load-config.js';
import type { JobQueue, QueuedJob } from '../scheduling/job-queue.js';
import { DEFAULT_LANE_LIMITS, type JobLane } from '../scheduling/lane-limits.js';
import { QueueUnavailableError } from '../scheduling/queue-unavailable-error.js';
import type { UserShares } from '../scheduling/user-shares.js';
import type { ChatLogger } from '../surface/ports.js';
import type { BotRuntime } from '../runtime/bot-runtime.js';
import { type Platform, type Store, StoreUnavailableError } from '../store/index.js';
import type { ChatJob, SurfaceFactory } from './chat-job.js';
import { type QuotaName, exhausted, limited, quotaStatus, secondsToUtcMidnight } from './daily-quota.js';
import { inputProblem } from './input-problem.js';
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
  now?: () => Date;
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
 * Which daily quota a job spends: chat tokens for a conversation (an image
 * its tools make is reserved against the image quota when it is asked for),
 * images for the rest.
 */
function quotaOf(job: ChatJob): QuotaName | undefined {
  // Undo shows an image again: no model call, nothing to count.
  if (job.input.kind === 'undo') return undefined;
  return job.input.kind === 'mention' ? 'chat tokens' : 'images';
}

/**
 * Ingress's door (JobIntake): the bot is not stopping, the request makes
 * sense (inputProblem), the user's daily quota
 * is not used up, their share of the queue is not taken; then the job is
 * recorded (a repeat delivery is found there) and queued. Any refusal is a
 * private answer and leaves nothing behind.
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

  async #submit(job: ChatJob, options: SubmitOptions): Promise<IntakeResult> {
    const { store, queue, runtime, logger } = this.#options;
    if (!runtime.accepting) return { accepted: false, answer: copy.restarting, reason: 'stopping' };
    const problem = inputProblem(job);
    if (problem !== undefined) return { accepted: false, answer: problem, reason: 'invalid' };
    try {
      // A repeat delivery is found when the job is recorded; only a refusal asks first, so a repeat is never refused.
      const repeat = async (): Promise<IntakeResult | undefined> =>
        (await store.jobs.get(job.id)) === undefined ? undefined : { accepted: true, duplicate: true };
      const quota = quotaOf(job);
      // No daily limit on what it spends: the user's totals are not read (a query per request saved).
      const spent =
        quota === undefined || !limited(this.#options.quota, quota)
          ? undefined
          : exhausted(await quotaStatus(store.usage, job, this.#options.quota), quota);
      if (spent !== undefined) {
        const known = await repeat();
        if (known !== undefined) return known;
        logger.info({ jobId: job.id, quota: spent.quota, limit: spent.limit }, 'job refused: daily quota used up');
        const now = this.#options.now?.() ?? new Date();
        return {
          accepted: false,
          answer: copy.quotaReached(spent.quota, spent.limit, secondsToUtcMidnight(now)),
          reason: 'quota',
        };
      }
      const lane = laneOf(job.input.kind);
      const refusal = await this.#shareRefusal(lane, job);
      if (refusal !== undefined) return (await repeat()) ?? { accepted: false, answer: refusal, reason: 'share' };
      const recorded = await store.jobs.record(toNewJob(job));
      if (!recorded.created) {
        // The place just taken is this job's own while it runs (a share counts a job once); else it goes back.
        if (recorded.job.id !== job.id || recorded.job.state === 'finished') await this.#giveBackPlace(lane, job);
        if (recorded.job.id === job.id) return { accepted: true, duplicate: true };
        logger.info({ jobId: job.id, running: recorded.job.id }, 'button pressed again while its first press runs');
        return { accepted: false, answer: copy.alreadyRunning, reason: 'already_running' };
      }
      await this.#beforeQueue(job, options);
      await this.#enqueue(job);
      const position = await queue.position(job.id).catch(() => undefined);
      // Taken by a worker already (0), its own messages say where it stands.
      if (position !== undefined && position > 0) this.#places?.show(job, position);
      return { accepted: true, duplicate: false, position };
    } catch (error) {
      if (!(error instanceof StoreUnavailableError || error instanceof QueueUnavailableError)) throw error;
      logger.error({ err: error, jobId: job.id }, 'job refused: the store or the queue is unavailable');
      return {
        accepted: false,
        answer: error instanceof QueueUnavailableError ? copy.queueUnavailable : copy.storeUnavailable,
        reason: error instanceof QueueUnavailableError ? 'queue_unavailable' : 'store_unavailable',
      };
    }
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
