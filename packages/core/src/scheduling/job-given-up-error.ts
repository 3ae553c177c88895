import { GenBotError } from '../errors.js';

/**
 * `JobQueue.add`'s rejection for a job the queue gave up on: it stalled (its
 * worker died or hung mid-job) more often than allowed, so running it again
 * would likely take down another worker. The job ends as failed instead.
 */
export class JobGivenUpError extends GenBotError {
  constructor(jobId: string) {
    super(`job ${jobId} was given up on by the queue: it stalled too often`);
  }
}
