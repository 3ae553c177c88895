import { systemClock, type Clock } from '../time/clock.js';

/** The slice of pino the gate logs through. */
export interface GateLogger {
  warn(details: object, message?: string): void;
  debug(details: object, message?: string): void;
}

export interface BackoffGateOptions {
  logger?: GateLogger;
  clock?: Clock;
}

/**
 * One per client. When the service pushes back (429, 529, 503 with
 * retry-after) the gate closes for the delay it asked for, and every request
 * of the client, new ones and retries alike, waits for it to open: a storm
 * then costs the service one failed request per window instead of one per
 * caller. Closing again while closed only ever extends the wait.
 */
export class BackoffGate {
  readonly #logger: GateLogger | undefined;
  readonly #clock: Clock;
  #openAt = Number.NEGATIVE_INFINITY;

  constructor(options: BackoffGateOptions = {}) {
    this.#logger = options.logger;
    this.#clock = options.clock ?? systemClock;
  }

  /** Milliseconds until the gate opens; 0 when open. */
  get remainingMs(): number {
    return Math.max(0, this.#openAt - this.#clock.now());
  }

  /** Holds every request for `delayMs` from now, unless the gate already stays closed longer. */
  close(delayMs: number, details: object = {}): void {
    if (delayMs <= 0) return;
    const now = this.#clock.now();
    const until = now + delayMs;
    if (until <= this.#openAt) return;
    const wasOpen = now >= this.#openAt;
    this.#openAt = until;
    // One warning per storm: the requests piling onto a closed gate are debug noise.
    if (wasOpen) this.#logger?.warn({ ...details, delayMs }, 'service pushed back: holding every request');
    else this.#logger?.debug({ ...details, delayMs }, 'service pushed back again: holding longer');
  }

  /** Resolves once the gate is open; rejects with the signal's reason if it aborts first. */
  async wait(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    // A loop, because the gate may close again (later) while we sleep.
    for (let left = this.remainingMs; left > 0; left = this.remainingMs) {
      await this.#clock.sleep(left, signal);
    }
  }
}
