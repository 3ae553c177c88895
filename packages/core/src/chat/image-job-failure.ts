import { describeError, type ErrorDescription } from '../genai/describe-error.js';
import { cancelledByTrigger } from '../jobs/cancellation-registry.js';
import { JobRejectedError } from '../jobs/job-rejected-error.js';
import type { ProgressMessage } from '../jobs/progress-message.js';
import { copy } from './copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';

/**
 * How an image job (imagine, edit) ends when it throws, told in its progress
 * message: a scheduler refusal says when to try again; a request withdrawn or
 * stopped says so where something is already on screen; anything else becomes
 * a short human error. Never throws.
 */
export async function endFailedImageJob(
  error: unknown,
  job: {
    /** For the logs: 'imagine', 'image edit'. */
    name: string;
    deps: ChatDeps;
    progress: ProgressMessage | undefined;
    signal: AbortSignal | undefined;
    failed: (description: ErrorDescription) => string;
  },
): Promise<ChatOutcome> {
  const { name, deps, progress, signal } = job;
  if (error instanceof JobRejectedError) {
    deps.logger.info({ reason: error.reason, retryAfterSeconds: error.retryAfterSeconds }, `${name} refused by the scheduler`);
    await progress?.finish(copy.busy(error.reason, error.retryAfterSeconds));
    return 'rejected';
  }
  if (signal?.aborted === true) {
    deps.logger.info({ reason: String(signal.reason) }, `${name} stopped`);
    // Nothing on screen yet: nothing to say about a request the user withdrew.
    if (progress?.posted === true) await progress.finish(cancelledByTrigger(signal) ? copy.cancelled : copy.stopped);
    return 'failed';
  }
  deps.logger.error({ err: error }, `${name} failed`);
  await progress?.finish(job.failed(describeError(error)));
  return 'failed';
}
