import { GenBotError } from '../errors.js';
import type { JobLane } from './lane-limits.js';

/**
 * Why a job was turned away: its user already has their share running or
 * waiting, the line is full, or the bot is shutting down.
 */
export type JobRejectionReason = 'user_limit' | 'queue_full' | 'shutting_down';

/** Thrown (as a rejection) by `JobScheduler.schedule`; nothing of the job ran. */
export class JobRejectedError extends GenBotError {
  readonly reason: JobRejectionReason;
  readonly lane: JobLane;
  /** When trying again is likely to succeed, estimated from recent jobs. */
  readonly retryAfterSeconds: number;

  constructor(reason: JobRejectionReason, lane: JobLane, retryAfterSeconds: number) {
    super(`${lane} job refused (${reason}); retry after ${retryAfterSeconds} s`);
    this.reason = reason;
    this.lane = lane;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
