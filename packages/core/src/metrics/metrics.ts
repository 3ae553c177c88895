import type { JobOutcome, Platform } from '../store/index.js';

/** Why ingress turned a job away (a private answer), as a metric label. */
export type IntakeRefusal =
  | 'stopping'
  | 'invalid'
  | 'quota'
  /** The workspace's (Discord server's) daily budget is used up, or the request would pass it. */
  | 'budget'
  /** `enabled` is off in the channel. */
  | 'disabled'
  | 'share'
  | 'already_running'
  | 'store_unavailable'
  | 'queue_unavailable';

/** The content-generation service's two operations. */
export type ModelOperation = 'generate-content' | 'messages';

/**
 * What the running product reports about itself. Core records through this port and never
 * knows the exporter (prom-client lives in @genbot/health). Label values must come from small
 * fixed sets (job kinds, operations, API method names), never from users or ids.
 */
export interface Metrics {
  /** A job ended, after `seconds` of running. */
  jobFinished(job: { kind: string; outcome: JobOutcome; seconds: number }): void;
  /** A worker took a job that had waited `seconds` in the queue since it was accepted. */
  jobStarted(job: { kind: string; waitedSeconds: number }): void;
  /** One request to the model service ended, after `seconds`; `ok` false for an error or a timeout. */
  modelRequest(request: { operation: ModelOperation; ok: boolean; seconds: number }): void;
  /** A platform answered 429 to `route` (a Web API method, or Discord's route template). */
  rateLimited(hit: { platform: Platform; route: string }): void;
  /**
   * A platform delivered something to this process: `kind` is the event type
   * (`app_mention`, `message`), the payload type (`block_actions`, `command`)
   * or the gateway event (`MESSAGE_CREATE`, `INTERACTION_CREATE`).
   */
  eventReceived(event: { platform: Platform; kind: string }): void;
  /** This process answered a platform's delivery (Slack's HTTP request) `seconds` after it arrived. */
  acknowledged(ack: { platform: Platform; seconds: number }): void;
  /** Ingress recorded and queued a job. */
  jobQueued(job: { kind: string }): void;
  /** Ingress turned a job away, and why. */
  jobRefused(job: { kind: string; reason: IntakeRefusal | 'other' }): void;
  /** Someone pressed a reply's feedback button (Slack's thumbs up or down under a streamed reply). */
  replyFeedback(feedback: { platform: Platform; rating: ReplyRating }): void;
}

/** What a person thought of a reply, by its feedback buttons. */
export type ReplyRating = 'good' | 'bad';

/** Records nothing: the default when no exporter is configured (no HEALTH_PORT), and in tests. */
export const noMetrics: Metrics = {
  jobFinished() {},
  jobStarted() {},
  modelRequest() {},
  rateLimited() {},
  eventReceived() {},
  acknowledged() {},
  jobQueued() {},
  jobRefused() {},
  replyFeedback() {},
};
