import { GenBotError } from '../errors.js';

/**
 * Thrown by a ChatSurface when the platform refused a call for its rate limit
 * (Slack 429 + Retry-After, Discord 429 retry_after). Core waits and retries
 * with the latest text; any other error counts as transient and is retried a
 * bounded number of times.
 */
export class RateLimitedError extends GenBotError {
  readonly retryAfterMs: number;

  constructor(
    retryAfterMs: number,
    message = `Rate limited: retry after ${retryAfterMs} ms`,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.retryAfterMs = Math.max(0, retryAfterMs);
  }
}
