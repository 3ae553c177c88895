/** Which of a call's limits ran out. */
export type Expiry = 'idle' | 'total';

/**
 * The time limits of one attempt, as one abort signal. The idle timer starts
 * over on `reset()` (a stream resets it on content, so waiting for the first
 * byte and between content events share it); the total one, when there is
 * one, never does. `expired` tells our own timeout apart from the caller's abort.
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #idleMs: number;
  readonly #totalMs: number | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  readonly #totalTimer: NodeJS.Timeout | undefined;
  #expired: Expiry | undefined;

  constructor(idleMs: number, totalMs?: number) {
    this.#idleMs = idleMs;
    this.#totalMs = totalMs;
    if (totalMs !== undefined) this.#totalTimer = setTimeout(() => this.#expire('total', totalMs), totalMs);
    this.reset();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expired(): Expiry | undefined {
    return this.#expired;
  }

  /** The limit that ran out, in milliseconds. */
  get expiredAfterMs(): number {
    return this.#expired === 'total' ? (this.#totalMs ?? this.#idleMs) : this.#idleMs;
  }

  reset(): void {
    clearTimeout(this.#idleTimer);
    if (this.#expired !== undefined) return;
    this.#idleTimer = setTimeout(() => this.#expire('idle', this.#idleMs), this.#idleMs);
  }

  clear(): void {
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#totalTimer);
  }

  #expire(which: Expiry, ms: number): void {
    if (this.#expired !== undefined) return;
    this.#expired = which;
    this.clear();
    this.#controller.abort(new Error(`no answer within ${ms} ms`));
  }
}
