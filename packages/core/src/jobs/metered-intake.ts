import type { Metrics } from '../metrics/metrics.js';
import type { IntakeResult, JobIntake, SubmitOptions } from './job-intake.js';
import type { ChatJob } from './chat-job.js';

/** An intake that counts what it queued and what it turned away (by reason) on `/metrics`. */
export function meteredIntake(intake: JobIntake, metrics: Metrics): JobIntake {
  const withdraw = intake.withdraw?.bind(intake);
  return {
    async submit(job: ChatJob, options?: SubmitOptions): Promise<IntakeResult> {
      const result = await intake.submit(job, options);
      const kind = job.input.kind;
      if (!result.accepted) metrics.jobRefused({ kind, reason: result.reason ?? 'other' });
      else if (!result.duplicate) metrics.jobQueued({ kind });
      return result;
    },
    ...(withdraw === undefined ? {} : { withdraw }),
  };
}
