/**
 * Keys let through once within a time to live, for de-duplicating deliveries
 * that may reach any of several processes (Slack retries an event after 1 and
 * 5 minutes, possibly to another replica). In memory by default; on Redis when
 * processes share it.
 */
export interface SeenKeys {
  /** True the first time `key` comes within `ttlMs` (it is remembered from then on), false after. */
  firstSeen(key: string, ttlMs: number): Promise<boolean>;
}

/** `SeenKeys` of one process: bounded, oldest keys dropped first. */
export class InMemorySeenKeys implements SeenKeys {
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Key -> when it expires; insertion order is age order. */
  readonly #expiries = new Map<string, number>();

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  async firstSeen(key: string, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    const expiresAt = this.#expiries.get(key);
    if (expiresAt !== undefined && expiresAt > now) return false;
    this.#expiries.delete(key);
    this.#expiries.set(key, now + ttlMs);
    for (const [oldKey, at] of this.#expiries) {
      if (this.#expiries.size <= this.#maxEntries && at > now) break;
      this.#expiries.delete(oldKey);
    }
    return true;
  }
}
