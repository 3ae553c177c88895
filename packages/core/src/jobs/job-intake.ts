import type { IntakeRefusal } from '../metrics/metrics.js';
import type { UsageScope } from '../store/index.js';
import type { ChatJob } from './chat-job.js';

/**
 * What ingress hears back for a job, before it answers the platform: a
 * refusal is private (Slack ephemeral, Discord ephemeral), so it must be
 * known before a Discord interaction is answered with a public defer.
 */
export type IntakeResult =
  /**
   * Recorded and queued (or seen before: `duplicate`, nothing more to do).
   * `position`: its place among the jobs waiting for a worker (1: next; 0: a
   * worker has it already), whose user the intake tells (`PlacesInLine`).
   */
  | { accepted: true; duplicate: boolean; position?: number | undefined }
  /** Nothing recorded or sent: `answer` (standard Markdown, from copy.ts) goes to the person alone; `reason` for the metrics. */
  | { accepted: false; answer: string; reason?: IntakeRefusal | undefined };

export interface SubmitOptions {
  /**
   * Called once the job is admitted and recorded, before it is queued: a
   * Discord interaction is deferred here, so no worker reaches its webhook
   * before the deferred response exists. Not called for a refusal or a
   * repeat. When it rejects, the job ends unrun and `submit` rejects with it.
   */
  beforeQueue?: (() => Promise<void>) | undefined;
}

/**
 * Ingress's one door: admission (the bot is not stopping, the user's daily
 * quota, their share of the queue), then the job is recorded in the store and
 * added to the queue. A delivery seen twice (same id) is one job.
 */
export interface JobIntake {
  submit(job: ChatJob, options?: SubmitOptions): Promise<IntakeResult>;
  /**
   * The message that triggered job `jobId` was deleted: a job still waiting
   * in line ends as cancelled, before any worker takes it, and what it showed
   * of its place in line is taken back. A running one is the runtime's to
   * cancel. Absent where jobs never wait in line. Never rejects.
   */
  withdraw?(jobId: string): Promise<void>;
}

/** Who asks for `/usage`: the app decides who is an admin (as for changing settings). */
export interface UsageAudience {
  /** Also shown the workspace's (Discord server's) use today beside their own, and its budgets. */
  admin?: boolean | undefined;
}

/** `/usage`: the private answer for one user (today, this month, what is left of each daily quota). */
export interface UsageReporter {
  answer(
    scope: Required<Pick<UsageScope, 'platform' | 'userId'>> & Pick<UsageScope, 'workspaceId'>,
    audience?: UsageAudience,
  ): Promise<string>;
}
