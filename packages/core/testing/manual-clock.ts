import type { Clock } from '../src/time/clock.js';

interface Sleeper {
  at: number;
  wake(): void;
}

/**
 * A clock for tests that moves only when told to: sleepers wake, in time
 * order, once `advance` has reached their time.
 */
export class ManualClock implements Clock {
  #now = 0;
  #sleepers: Sleeper[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      const sleeper: Sleeper = {
        at: this.#now + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.#sleepers.push(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Moves time forward by `ms`, waking each sleeper due on the way and letting it run before the next. */
  async advance(ms: number): Promise<void> {
    // Work already woken runs (and goes to sleep) before time moves.
    await settle();
    const end = this.#now + ms;
    for (;;) {
      const next = this.#sleepers.filter((s) => s.at <= end).sort((a, b) => a.at - b.at)[0];
      if (next === undefined) break;
      this.#now = Math.max(this.#now, next.at);
      this.#sleepers = this.#sleepers.filter((s) => s !== next);
      next.wake();
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets promise chains woken by a sleeper run (and possibly go back to sleep). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
