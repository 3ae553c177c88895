import type { Clock } from '../time/clock.js';
import { RateLimitedError } from '../surface/rate-limited-error.js';

export interface RetryPolicy {
  /** Consecutive failures other than rate limits tolerated before giving up. */
  maxTransientRetries: number;
  /** First back-off after a transient failure; doubles each time. */
  transientBackoffMs: number;
  /** Total time spent waiting out rate limits before giving up. */
  maxRateLimitWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxTransientRetries: 3,
  transientBackoffMs: 500,
  // Rate limits only delay a reply, and its final text must land: wait long.
  maxRateLimitWaitMs: 5 * 60_000,
};

// A surface answering "retry after 0 ms" forever must not spin.
const MIN_RATE_LIMIT_WAIT_MS = 100;

/** Decides, failure after failure, how long to wait before trying a surface call again. */
export class RetryBudget {
  readonly #policy: RetryPolicy;
  #transientFailures = 0;
  #rateLimitWaitedMs = 0;

  constructor(policy: RetryPolicy = DEFAULT_RETRY_POLICY) {
    this.#policy = policy;
  }

  /** Milliseconds to wait before the next attempt, or undefined to give up. */
  delayAfter(error: unknown): number | undefined {
    if (error instanceof RateLimitedError) {
      const wait = Math.max(error.retryAfterMs, MIN_RATE_LIMIT_WAIT_MS);
      this.#rateLimitWaitedMs += wait;
      return this.#rateLimitWaitedMs <= this.#policy.maxRateLimitWaitMs ? wait : undefined;
    }
    this.#transientFailures += 1;
    if (this.#transientFailures > this.#policy.maxTransientRetries) return undefined;
    return this.#policy.transientBackoffMs * 2 ** (this.#transientFailures - 1);
  }

  succeeded(): void {
    this.#transientFailures = 0;
  }
}

/**
 * Runs one surface call that posts nothing (reading a thread, a download),
 * waiting out rate limits and retrying transient failures; the waits end
 * when `signal` aborts. Posts and edits go through `pacedCall` instead.
 */
export async function withRetries<T>(call: () => Promise<T>, clock: Clock, signal?: AbortSignal): Promise<T> {
  const budget = new RetryBudget();
  for (;;) {
    try {
      return await call();
    } catch (error) {
      const delay = budget.delayAfter(error);
      if (delay === undefined) throw error;
      await clock.sleep(delay, signal);
    }
  }
}
