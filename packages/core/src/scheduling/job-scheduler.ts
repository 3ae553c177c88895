import { systemClock, type Clock } from '../time/clock.js';
import { ByteBudget } from './byte-budget.js';
import { JobRejectedError } from './job-rejected-error.js';
import { Lane, type JobTask, type LaneStats, type ScheduleOptions } from './lane.js';
import { DEFAULT_LANE_LIMITS, JOB_LANES, type JobLane, type LaneLimits } from './lane-limits.js';

export interface JobSchedulerOptions {
  /** Overrides of the image lane's limits (default concurrency 4, perUser 2, queueLimit 50). */
  image?: Partial<LaneLimits>;
  /** Overrides of the stream lane's limits (default concurrency 16, perUser 2, queueLimit 50). */
  stream?: Partial<LaneLimits>;
  /**
   * Bytes of job inputs held in memory at once (an edit's source image), by
   * what the platform declares (default 16 MiB: one of the largest images the
   * service takes inline, 14 MiB, at a time, while photos of a few MiB still
   * run as many at once as the lane allows). Each input byte costs about three
   * in memory while its request is built and sent.
   */
  inputBytes?: number;
  /** Shortest wait suggested to a refused user, in seconds (default 5). */
  minRetryAfterSeconds?: number;
  /** Measures job durations (default `systemClock`). */
  clock?: Clock;
}

const DEFAULT_INPUT_BYTES = 16 * 1024 * 1024;

/** A restart takes about this long; a refused user is told to come back after it. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 60;

function checkedLimits(lane: JobLane, overrides: Partial<LaneLimits> | undefined): LaneLimits {
  const limits = { ...DEFAULT_LANE_LIMITS[lane], ...overrides };
  const whole = (value: number, min: number): boolean => Number.isInteger(value) && value >= min;
  if (
    !whole(limits.concurrency, 1) ||
    !whole(limits.perUser, 1) ||
    !whole(limits.queueLimit, 0) ||
    !(limits.typicalDurationMs > 0)
  ) {
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
  readonly #inputBytes: ByteBudget;
  #shuttingDown = false;

  constructor(options: JobSchedulerOptions = {}) {
    const clock = options.clock ?? systemClock;
    const now = (): number => clock.now();
    const minRetryAfterSeconds = options.minRetryAfterSeconds ?? 5;
    const lane = (name: JobLane): Lane =>
      new Lane({ name, limits: checkedLimits(name, options[name]), now, minRetryAfterSeconds });
    this.#lanes = { image: lane('image'), stream: lane('stream') };
    this.#inputBytes = new ByteBudget(options.inputBytes ?? DEFAULT_INPUT_BYTES);
  }

  /**
   * Waits, inside a running job, until `bytes` of input may be held in
   * memory: admitted jobs with large inputs (13 MiB images) then download
   * and send them a few at a time, whatever the lane's concurrency. Resolves
   * with the function that gives them back; rejects when `signal` aborts.
   */
  holdInputBytes(bytes: number, signal?: AbortSignal): Promise<() => void> {
    return this.#inputBytes.hold(bytes, signal);
  }

  /**
   * Runs `task` at once when its lane has room, otherwise after the jobs
   * ahead of it. Rejects with `JobRejectedError` (nothing ran) when the user
   * already has their share, the line is full or shutdown has begun; with the
   * signal's reason when the caller aborts while it waits; otherwise settles
   * like `task`.
   */
  schedule<T>(lane: JobLane, userId: string, task: JobTask<T>, options: ScheduleOptions = {}): Promise<T> {
    if (this.#shuttingDown)
      return Promise.reject(new JobRejectedError('shutting_down', lane, SHUTDOWN_RETRY_AFTER_SECONDS));
    return this.#lanes[lane].run(userId, task, options);
  }

  /**
   * The refusal `schedule` would answer with right now, without taking a
   * place: lets a caller turn a request away before doing any work for it.
   * Undefined when the job would run or wait in line.
   */
  refusal(lane: JobLane, userId: string): JobRejectedError | undefined {
    if (this.#shuttingDown) return new JobRejectedError('shutting_down', lane, SHUTDOWN_RETRY_AFTER_SECONDS);
    return this.#lanes[lane].refusalFor(userId);
  }

  /**
   * Closes admission for a shutdown: refuses new jobs and turns away the
   * waiting ones (reason `shutting_down`), so none starts during the drain;
   * running jobs go on until they end or their callers abort them.
   */
  close(): void {
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
