import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** How long the condition has to come true (default 15 s: generous, since a failing test is the only one that waits it out). */
  timeoutMs?: number;
  /** What was awaited, or a function describing the state seen, for the error when it never came. */
  what?: string | (() => string);
  /** Pause between probes (default 10 ms). */
  everyMs?: number;
}

type Found<T> = T | undefined | null | false;

/**
 * The one way tests wait: probes `probe` until it gives something other than `undefined`, `null` or
 * `false`, and returns that. A test waits on a condition, never on the clock; "nothing happened" is
 * shown by sending a marker after it and waiting for the marker's answer.
 */
export async function eventually<T>(
  probe: () => Found<T> | Promise<Found<T>>,
  options: EventuallyOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined && found !== null && found !== false) return found;
    if (Date.now() >= deadline) {
      const what = typeof options.what === 'function' ? options.what() : options.what;
      throw new Error(`not within ${timeoutMs} ms${what === undefined ? '' : `: ${what}`}`);
    }
    await sleep(options.everyMs ?? 10);
  }
}
