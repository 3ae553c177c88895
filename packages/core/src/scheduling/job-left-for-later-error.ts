import { GenBotError } from '../errors.js';

/**
 * A handler's rejection for a job it did not finish and that should run
 * again: its process is stopping (the drain caught it, or it arrived as
 * admission closed), or what it needs is away for now (the database). Where
 * the queue is shared, it hands the job to a worker again after `afterMs`
 * instead of counting it done or failed; the job's recorded steps let that
 * worker resume where this one stopped.
 */
export class JobLeftForLaterError extends GenBotError {
  /** How long the queue waits before handing the job out again. */
  readonly afterMs: number;

  constructor(jobId: string, why: string, options: { afterMs?: number; cause?: unknown } = {}) {
    super(`job ${jobId} left for later: ${why}`, options.cause === undefined ? {} : { cause: options.cause });
    this.afterMs = options.afterMs ?? 0;
  }
}
