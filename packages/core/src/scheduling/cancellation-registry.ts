import { GenBotError } from '../errors.js';

/** The reason a job's signal carries when the user took back what triggered it (deleted the message). */
export class CancelledError extends GenBotError {
  readonly key: string;

  constructor(key: string) {
    super(`cancelled: ${key}`);
    this.key = key;
  }
}

/** True when `signal` aborted because its trigger was cancelled, rather than for shutdown or a timeout. */
export function cancelledByTrigger(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason instanceof CancelledError;
}

export interface CancellationRegistryOptions {
  /** Aborts every job's signal when it aborts (process shutdown). */
  shutdown?: AbortSignal;
  /** Triggers tracked at once (default 10,000); past it the oldest can no longer be cancelled, only finish. */
  limit?: number;
}

interface Entry {
  controller: AbortController;
  /** Jobs begun under the key and not ended (a trigger may start more than one). */
  holders: number;
}

/**
 * Which work a trigger started, for as long as it runs, so that deleting the
 * trigger message stops it. Keys are the apps' own, one per trigger message:
 * `slack:C1:1700000000.000100`, `discord:123456789012345678`.
 */
export class CancellationRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #shutdown: AbortSignal | undefined;
  readonly #limit: number;

  constructor(options: CancellationRegistryOptions = {}) {
    this.#shutdown = options.shutdown;
    this.#limit = options.limit ?? 10_000;
  }

  /** Triggers with work running. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Starts tracking work for `key`; the signal aborts on `cancel(key)`, on
   * shutdown, or when `signal` (the caller's own, if any) aborts. Pair with `end`.
   */
  begin(key: string, signal?: AbortSignal): AbortSignal {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      const oldest = this.#entries.keys().next();
      if (this.#entries.size >= this.#limit && oldest.done !== true) this.#entries.delete(oldest.value);
      entry = { controller: new AbortController(), holders: 0 };
      this.#entries.set(key, entry);
    }
    entry.holders += 1;
    const signals = [entry.controller.signal, this.#shutdown, signal].filter((s): s is AbortSignal => s !== undefined);
    return signals.length === 1 ? entry.controller.signal : AbortSignal.any(signals);
  }

  /**
   * Aborts the work `key` started, with a `CancelledError`; false when none
   * is running. The key stays cancelled until that work ends, so a late
   * `begin` for the same trigger gets an aborted signal.
   */
  cancel(key: string): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.controller.signal.aborted) return false;
    entry.controller.abort(new CancelledError(key));
    return true;
  }

  /** The work `key` started has finished (or failed): forget it. */
  end(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    entry.holders -= 1;
    if (entry.holders <= 0) this.#entries.delete(key);
  }

  /** `begin`, run `work` with the signal, then `end`, whatever happens. */
  async run<T>(key: string, work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const combined = this.begin(key, signal);
    try {
      return await work(combined);
    } finally {
      this.end(key);
    }
  }
}
