import { GenBotError } from '../errors.js';

/**
 * The reason a delivery's signal carries when the queue no longer counts it
 * as this worker's (its hold on the job lapsed while the worker lived, and
 * another worker may be running the job already). That worker resumes the
 * job from its recorded steps, so this run stops and says nothing more: a
 * word from it would be a second answer.
 */
export class JobHandedOverError extends GenBotError {
  constructor(jobId: string) {
    super(`job ${jobId} was handed to another worker`);
  }
}

/** True when `signal` aborted because its job was handed to another worker. */
export function handedOver(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason instanceof JobHandedOverError;
}
