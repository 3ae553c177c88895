import type { ChatLogger } from '../surface/ports.js';
import { StoreUnavailableError } from '../store/index.js';

export interface UntilStoredOptions {
  logger: ChatLogger;
  /** Checked before each new try: once true (the drain began), the store's last refusal is thrown. */
  stopped: () => boolean;
  /** First wait between tries; it doubles up to `maxDelayMs` (defaults 250 ms and 5 s). */
  firstDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a store call, and while the database cannot be used runs it again
 * with a growing pause, until it answers: a job whose step, version, usage or
 * end could not be recorded waits for the database instead of being dropped
 * until the next start, and goes on by itself once it is back. Its next
 * visible step still comes only after this one is recorded, so a crash
 * during the outage cannot make it post twice. Any other error is thrown at once.
 */
export async function untilStored<T>(what: string, call: () => Promise<T>, options: UntilStoredOptions): Promise<T> {
  const sleep = options.sleep ?? pause;
  const maxDelay = options.maxDelayMs ?? MAX_DELAY_MS;
  let delay = options.firstDelayMs ?? FIRST_DELAY_MS;
  let waited = false;
  for (;;) {
    try {
      const result = await call();
      if (waited) options.logger.info({ what }, 'the database answers again: the job goes on');
      return result;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || options.stopped()) throw error;
      if (!waited) options.logger.warn({ err: error, what }, 'the database cannot be used: the job waits for it');
      waited = true;
    }
    await sleep(delay * (0.75 + Math.random() / 2));
    delay = Math.min(delay * 2, maxDelay);
  }
}

/** A store call that waits out a database outage, as `untilStored` runs it with the worker's options. */
export type StoredCall = <T>(what: string, call: () => Promise<T>) => Promise<T>;
