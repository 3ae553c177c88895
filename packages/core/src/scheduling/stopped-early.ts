import { cancelledByTrigger } from './cancellation-registry.js';
import { handedOver } from './job-handed-over-error.js';
import { JobRejectedError } from './job-rejected-error.js';

/**
 * Why a job ended before its result, when it was not its own failure:
 * `cancelled` when the person took back what started it (deleted the
 * message); `restart` when the process is stopping, whether the job was
 * turned away from the line or its run was aborted once the drain ran out
 * (the bots abort a job's signal for nothing else but `handedOver`: the
 * queue gave the job to another worker, which finishes it, so this run says
 * nothing more). Undefined otherwise.
 */
export function stoppedEarly(
  error: unknown,
  signal: AbortSignal | undefined,
): 'cancelled' | 'restart' | 'handedOver' | undefined {
  if (cancelledByTrigger(signal)) return 'cancelled';
  if (handedOver(signal)) return 'handedOver';
  if (signal?.aborted === true) return 'restart';
  if (error instanceof JobRejectedError && error.reason === 'shutting_down') return 'restart';
  return undefined;
}
