export type { ChatJob, ChatJobInput, ChatJobKind, SurfaceFactory } from './chat-job.js';
export { CHAT_JOB_SCHEMA_VERSION, settingsPlaceOf } from './chat-job.js';
export type { IntakeResult, JobIntake, SubmitOptions, UsageAudience, UsageReporter } from './job-intake.js';
export { inputProblem } from './input-problem.js';
export { meteredIntake } from './metered-intake.js';
export { ChatJobIntake, type ChatJobIntakeOptions, laneOf, queuedJob, type SharedPlaces } from './chat-job-intake.js';
export { JobWorker, type JobWorkerOptions, MAX_RESUME_AGE_MS, type ResumeResult } from './job-worker.js';
export { LedgerUsageReporter } from './usage-report.js';
export { askedIn, parseChatJob, toNewJob, UnreadableJobError } from './parse-chat-job.js';
export {
  type RecordedSurface,
  recordedSurface,
  POSTED_STEP,
  STREAMED_STEP,
  UPLOADED_STEP,
} from './recorded-surface.js';
export { estimateTokens, UsageMeter } from './usage-meter.js';
export { type RetentionSweep, startRetentionSweep } from './retention-sweep.js';
export { secondsToUtcMidnight } from './daily-quota.js';
export { StoredThreadCache, type StoredThreadCacheOptions } from './stored-thread-cache.js';
export {
  type ButtonPress,
  type EditForm,
  editForm,
  type FormSubmission,
  type PressAnswer,
  type PressedMessage,
  ResultPresses,
  type ResultPressesOptions,
} from './result-presses.js';
