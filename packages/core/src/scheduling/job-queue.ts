import type { JobLane } from './lane-limits.js';

/**
 * What a queue entry carries: the job's id and enough to route it. The job
 * itself (kind, place, input) lives in the store under the same id, so a
 * queue entry holds no user content and no secret, and a worker reads the
 * job from the one place that survives restarts.
 */
export interface QueuedJob {
  /** The job's id in the store, from its trigger (`slack-ev-…`, `dc-int-…`): the queue's de-duplication key too. */
  id: string;
  /** Which concurrency limit applies while it runs. */
  lane: JobLane;
  /** So that a process takes only the jobs of the platforms it can answer on. */
  platform: string;
  /** The user it counts for, for per-user shares and "place in line". */
  userId: string;
}

/** One hand-over of a job to a handler. */
export interface JobDelivery {
  job: QueuedJob;
  /**
   * 1 on the first hand-over; more when a worker died or stalled mid-job and
   * the queue handed it out again (delivery is at least once: the handler
   * makes a repeat safe with the store's claim and recorded steps).
   */
  attempt: number;
  /**
   * This delivery's own: aborted when the process stops past its drain
   * deadline, and, with a `JobHandedOverError`, when the queue no longer
   * counts the job as this worker's (another worker resumes it).
   */
  signal: AbortSignal;
}

/**
 * Runs one job to its end. Resolving acknowledges the job. Rejecting marks the
 * delivery failed: handlers tell the user themselves and reject only for what
 * they could not handle (the queue logs it and does not hand the job out again).
 * Rejecting with `JobLeftForLaterError` (the process is stopping) puts the job
 * back for another worker where the queue is shared; in-process, the store's
 * resume on the next start picks it up.
 */
export type JobHandler = (delivery: JobDelivery) => Promise<void>;

export interface ProcessOptions {
  /** Jobs this process runs at once, per lane. */
  concurrency: Readonly<Record<JobLane, number>>;
  /** Only jobs of these platforms are taken here. */
  platforms: readonly string[];
  /**
   * Called once for a job the queue gave up on without handing it out again:
   * it stalled (its worker died or hung mid-job) more often than allowed. The
   * store still has it unfinished, so this ends it. A queue that never gives
   * up (in-process) never calls it.
   */
  onGivenUp?: ((job: QueuedJob) => Promise<void>) | undefined;
}

/**
 * The port between ingress (which records a job and adds it) and the workers
 * that run it: in-process by default, BullMQ on Redis with REDIS_URL. Both
 * keep the same promises: at-least-once delivery, acknowledgement on
 * completion, and one job per id however often it is added.
 */
export interface JobQueue {
  /**
   * Adds a job; one whose id is waiting or running already is not added again.
   * An id whose earlier run ended is added anew: the store, not the queue,
   * says whether a job is finished (a resume adds back only unfinished ones),
   * but for one the queue gave up on (`onGivenUp`): that rejects with a
   * `JobGivenUpError`, so no resume puts it back in line.
   *
   * `firstTime`: the store has just created the job's record, so no earlier
   * run can have ended under its id, and the queue need not look for one (a
   * round trip saved for every new job).
   */
  add(job: QueuedJob, options?: { firstTime?: boolean }): Promise<void>;

  /** Starts handing jobs to `handler`; called once per process that works jobs. */
  process(handler: JobHandler, options: ProcessOptions): void;

  /**
   * True while the queue has the job waiting or running (a live worker holds
   * it, or will take it over once its holder's lock lapses): a process
   * resuming the store's unfinished jobs leaves it alone.
   */
  holds(job: QueuedJob): Promise<boolean>;

  /**
   * The job's place among the jobs of its lane waiting for a worker (1: next),
   * 0 once a worker has taken it, undefined when it is unknown or done.
   */
  position(id: string): Promise<number | undefined>;

  /**
   * Stops handing out jobs; handlers already running go on (the caller drains
   * them). Jobs not yet started stay recorded in the store, to be resumed on
   * the next start.
   */
  close(): Promise<void>;
}
