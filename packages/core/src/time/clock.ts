/**
 * Time as core sees it: one port for every wait and every measured interval
 * (reply pacing, retries, the service's back-off gate, the scheduler's job
 * durations). Injectable, so tests drive it with vitest's fake timers or a
 * `ManualClock`.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale: only differences mean anything. */
  now(): number;
  /**
   * Resolves after `ms`. When `signal` aborts first (or has already), rejects
   * with its reason, the cancellation error: whoever waits stops, and is never
   * let through early as though the time had passed.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
