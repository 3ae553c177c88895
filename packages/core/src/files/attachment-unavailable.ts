import { GenBotError } from '../errors.js';

/**
 * Why an attachment cannot be had, whatever is tried: the file is over the
 * size the bot takes, the platform will not hand it to the bot (Slack: the app
 * lacks `files:read`), it is hidden by the workspace's plan, deleted, or kept
 * outside the platform.
 */
export type UnavailableReason = 'too_large' | 'not_allowed' | 'hidden_by_limit' | 'deleted' | 'external';

/**
 * Thrown by `ChatSurface.download` for a permanent failure: core answers with
 * what went wrong and does not try again. Any other error counts as transient.
 */
export class AttachmentUnavailableError extends GenBotError {
  readonly reason: UnavailableReason;
  /** For `too_large`: the size in bytes, when known. */
  readonly size: number | undefined;

  constructor(reason: UnavailableReason, message: string, options: { size?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.size = options.size;
  }
}
