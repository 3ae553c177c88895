import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 10;

/** Polls `check` until it returns something truthy; rejects after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | null | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = check();
    if (result !== undefined && result !== null && result !== false) return result;
    if (Date.now() >= deadline) throw new Error(`discord fake: condition not met within ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
}
