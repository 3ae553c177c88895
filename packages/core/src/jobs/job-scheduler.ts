import { JobRejectedError } from './job-rejected-error.js';
import { Lane, type JobTask, type LaneStats, type ScheduleOptions } from './lane.js';
import { DEFAULT_LANE_LIMITS, JOB_LANES, type JobLane, type LaneLimits } from './lane-limits.js';

export interface JobSchedulerOptions {
  /** Overrides of the image lane's limits (default concurrency 4, perUser 2, queueLimit 50). */
  image?: Partial<LaneLimits>;
  /** Overrides of the stream lane's limits (default concurrency 16, perUser 2, queueLimit 50). */
  stream?: Partial<LaneLimits>;
  /** Shortest wait suggested to a refused user, in seconds (default 5). */
  minRetryAfterSeconds?: number;
  /** Milliseconds clock for job durations (default `performance.now`). */
  now?: () => number;
}

/** A restart takes about this long; a refused user is told to come back after it. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 60;

function checkedLimits(lane: JobLane, overrides: Partial<LaneLimits> | undefined): LaneLimits {
  const limits = { ...DEFAULT_LANE_LIMITS[lane], ...overrides };
  const whole = (value: number, min: number): boolean => Number.isInteger(value) && value >= min;
  if (!whole(limits.concurrency, 1) || !whole(limits.perUser, 1) || !whole(limits.queueLimit, 0) || !(limits.typicalDurationMs > 0)) {
    throw new RangeError(`Invalid ${lane} lane limits: ${JSON.stringify(limits)}`);
  }
  return limits;
}

/**
 * Fair, bounded admission of model calls, shared by every chat of the
 * process: each lane caps the calls running at once, lets one user hold only
 * a few running-or-waiting places, and keeps a bounded FIFO line. Work past
 * those bounds is refused at once with a `JobRejectedError` saying when to
 * try again, so a busy bot answers quickly instead of piling up.
 */
export class JobScheduler {
  readonly #lanes: Record<JobLane, Lane>;
  #shuttingDown = false;

  constructor(options: JobSchedulerOptions = {}) {
    const now = options.now ?? (() => performance.now());
    const minRetryAfterSeconds = options.minRetryAfterSeconds ?? 5;
    const lane = (name: JobLane): Lane => new Lane({ name, limits: checkedLimits(name, options[name]), now, minRetryAfterSeconds });
    this.#lanes = { image: lane('image'), stream: lane('stream') };
  }

  /**
   * Runs `task` at once when its lane has room, otherwise after the jobs
   * ahead of it. Rejects with `JobRejectedError` (nothing ran) when the user
   * already has their share, the line is full or shutdown has begun; with the
   * signal's reason when the caller aborts while it waits; otherwise settles
   * like `task`.
   */
  schedule<T>(lane: JobLane, userId: string, task: JobTask<T>, options: ScheduleOptions = {}): Promise<T> {
    if (this.#shuttingDown) return Promise.reject(new JobRejectedError('shutting_down', lane, SHUTDOWN_RETRY_AFTER_SECONDS));
    return this.#lanes[lane].run(userId, task, options);
  }

  /**
   * Refuses new jobs and turns away the waiting ones (reason `shutting_down`);
   * running jobs go on until they end or their callers abort them.
   */
  shutdown(): void {
    this.#shuttingDown = true;
    for (const lane of JOB_LANES) {
      this.#lanes[lane].refuseWaiting(new JobRejectedError('shutting_down', lane, SHUTDOWN_RETRY_AFTER_SECONDS));
    }
  }

  /** Running and waiting jobs per lane, for benchmarks and health checks. */
  stats(): Record<JobLane, LaneStats> {
    return { image: this.#lanes.image.stats, stream: this.#lanes.stream.stats };
  }
}
