import { JobRejectedError, type JobRejectionReason } from './job-rejected-error.js';
import type { JobLane, LaneLimits } from './lane-limits.js';
import { RecentDurations } from './recent-durations.js';

/** The work of a job; `signal` aborts when the caller gives up on it. */
export type JobTask<T> = (signal: AbortSignal) => Promise<T>;

export interface ScheduleOptions {
  /** The caller's cancellation: takes a waiting job out of line, and reaches a running one through its task's signal. */
  signal?: AbortSignal | undefined;
  /** The job's 1-based place in line when it has to wait, and again each time it moves up. */
  onQueued?: ((position: number) => void) | undefined;
}

export interface LaneStats {
  running: number;
  queued: number;
}

interface Running {
  userId: string;
  startedAt: number;
}

interface Waiting {
  userId: string;
  onQueued: ((position: number) => void) | undefined;
  /** The place last reported, so only moves are reported. */
  reported: number;
  start(): void;
  refuse(error: unknown): void;
}

export interface LaneOptions {
  name: JobLane;
  limits: LaneLimits;
  now: () => number;
  minRetryAfterSeconds: number;
}

/**
 * One lane of the scheduler: at most `concurrency` jobs running, at most
 * `queueLimit` waiting in FIFO order, at most `perUser` of one user's jobs in
 * either. Every structure is bounded by those limits.
 */
export class Lane {
  readonly #name: JobLane;
  readonly #limits: LaneLimits;
  readonly #now: () => number;
  readonly #minRetryAfterSeconds: number;
  readonly #running = new Set<Running>();
  readonly #queue: Waiting[] = [];
  /** Running or waiting jobs per user; users with none have no entry. */
  readonly #perUser = new Map<string, number>();
  readonly #durations = new RecentDurations();

  constructor(options: LaneOptions) {
    this.#name = options.name;
    this.#limits = options.limits;
    this.#now = options.now;
    this.#minRetryAfterSeconds = options.minRetryAfterSeconds;
  }

  get stats(): LaneStats {
    return { running: this.#running.size, queued: this.#queue.length };
  }

  run<T>(userId: string, task: JobTask<T>, options: ScheduleOptions): Promise<T> {
    const { signal } = options;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const refusal = this.refusalFor(userId);
    if (refusal !== undefined) return Promise.reject(refusal);
    this.#perUser.set(userId, (this.#perUser.get(userId) ?? 0) + 1);
    // The line is empty whenever a slot is free: a finishing job hands its slot to the first in line.
    if (this.#running.size < this.#limits.concurrency) return this.#start(userId, task, signal);

    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.#leaveLine(entry);
        reject(signal?.reason);
      };
      const entry: Waiting = {
        userId,
        onQueued: options.onQueued,
        reported: 0,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.#start(userId, task, signal).then(resolve, reject);
        },
        refuse: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(entry);
      this.#reportPositions();
    });
  }

  /** What `run` would answer for the user right now if it refused them; undefined when it would take the job. */
  refusalFor(userId: string): JobRejectedError | undefined {
    const refusal = this.#refusal(userId);
    return refusal === undefined
      ? undefined
      : new JobRejectedError(refusal, this.#name, this.#retryAfterSeconds(refusal, userId));
  }

  /** Turns away every waiting job with `error`; running jobs go on. */
  refuseWaiting(error: unknown): void {
    for (const entry of this.#queue.splice(0)) {
      this.#release(entry.userId);
      entry.refuse(error);
    }
  }

  #refusal(userId: string): JobRejectionReason | undefined {
    if ((this.#perUser.get(userId) ?? 0) >= this.#limits.perUser) return 'user_limit';
    const full = this.#running.size >= this.#limits.concurrency && this.#queue.length >= this.#limits.queueLimit;
    return full ? 'queue_full' : undefined;
  }

  #start<T>(userId: string, task: JobTask<T>, signal: AbortSignal | undefined): Promise<T> {
    const job: Running = { userId, startedAt: this.#now() };
    this.#running.add(job);
    const jobSignal = signal ?? new AbortController().signal;
    let result: Promise<T>;
    try {
      result = task(jobSignal);
    } catch (error) {
      result = Promise.reject(error);
    }
    return result.finally(() => this.#finish(job, jobSignal.aborted));
  }

  #finish(job: Running, aborted: boolean): void {
    this.#running.delete(job);
    // A job cut short says nothing about how long jobs take.
    if (!aborted) this.#durations.add(this.#now() - job.startedAt);
    this.#release(job.userId);
    const next = this.#queue.shift();
    if (next === undefined) return;
    next.start();
    this.#reportPositions();
  }

  #leaveLine(entry: Waiting): void {
    const index = this.#queue.indexOf(entry);
    if (index === -1) return;
    this.#queue.splice(index, 1);
    this.#release(entry.userId);
    this.#reportPositions();
  }

  #release(userId: string): void {
    const count = (this.#perUser.get(userId) ?? 0) - 1;
    if (count > 0) this.#perUser.set(userId, count);
    else this.#perUser.delete(userId);
  }

  #reportPositions(): void {
    this.#queue.forEach((entry, index) => {
      const position = index + 1;
      if (entry.reported === position) return;
      entry.reported = position;
      try {
        entry.onQueued?.(position);
      } catch {
        // A caller's display failing must not stall the line; the caller logs its own failures.
      }
    });
  }

  /**
   * How long until trying again is likely to work, from the recent mean job
   * length (or the typical one) and how long the running jobs have run.
   */
  #retryAfterSeconds(reason: JobRejectionReason, userId: string): number {
    const typical = this.#durations.mean() ?? this.#limits.typicalDurationMs;
    const now = this.#now();
    const firstEnd = (jobs: Running[]): number =>
      jobs.length === 0 ? typical : Math.min(...jobs.map((job) => Math.max(0, typical - (now - job.startedAt))));
    const running = [...this.#running];
    let ms: number;
    if (reason === 'queue_full') {
      // A place in line frees up when the first running job ends.
      ms = firstEnd(running);
    } else {
      const own = running.filter((job) => job.userId === userId);
      if (own.length > 0) {
        ms = firstEnd(own);
      } else {
        // All their jobs wait: the first starts after `index + 1` running jobs have ended, then runs.
        const index = Math.max(
          0,
          this.#queue.findIndex((entry) => entry.userId === userId),
        );
        ms = firstEnd(running) + Math.floor(index / this.#limits.concurrency) * typical + typical;
      }
    }
    return Math.max(this.#minRetryAfterSeconds, Math.ceil(ms / 1000));
  }
}
