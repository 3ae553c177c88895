import { type Clock, systemClock } from '../time/clock.js';
import { type ChannelBudget, callBurst, callIntervalMs, type CallKind, type CallPriority } from './channel-budget.js';
import type { ChatLogger } from '../surface/ports.js';
import { RateLimitedError } from '../surface/rate-limited-error.js';
import type { ChatSurface } from '../surface/surface.js';
import { RetryBudget } from './retry.js';

/** What a paced call needs of the use case's deps: the surface, the channels' budget, a logger. */
export interface PacedDeps {
  surface: ChatSurface;
  channels: ChannelBudget;
  logger: ChatLogger;
  clock?: Clock | undefined;
}

/**
 * One post, edit or upload, made when the budget gives its key (its channel,
 * or what the surface names: `paceKeyOf`) a turn. This is the one layer that retries such calls (the platform
 * clients do not): a rate limit holds the channel back and waits its turn
 * again, other failures are retried a few times with back-off.
 */
export async function pacedCall<T>(
  deps: PacedDeps,
  key: string,
  kind: CallKind,
  call: () => Promise<T>,
  options: { priority?: CallPriority; signal?: AbortSignal | undefined } = {},
): Promise<T> {
  const clock = deps.clock ?? systemClock;
  const retries = new RetryBudget();
  const intervalMs = callIntervalMs(deps.surface.limits, kind);
  for (;;) {
    const done = await deps.channels.turn(key, kind, intervalMs, {
      ...options,
      burst: callBurst(deps.surface.limits, kind),
    });
    try {
      return await call();
    } catch (error) {
      const delay = retries.delayAfter(error);
      if (delay === undefined) throw error;
      deps.logger.warn({ err: error, retryInMs: delay }, 'chat surface call failed; trying again');
      if (error instanceof RateLimitedError) deps.channels.holdOff(key, kind, delay);
      else await clock.sleep(delay, options.signal);
    } finally {
      done();
    }
  }
}
