/**
 * Keys seen recently. Slack redelivers an event it thinks was lost (same
 * `event_id`, `X-Slack-Retry-Num`), so each one is let through once per TTL.
 * Expired keys are dropped as new ones arrive; the size is bounded too.
 */
export class RecentKeys {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Key -> when it was first seen; insertion order is age order. */
  readonly #seen = new Map<string, number>();

  constructor(options: { ttlMs: number; maxEntries?: number; now?: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#seen.size;
  }

  /** True the first time a key comes (within the TTL); it is remembered from then on. */
  firstSeen(key: string): boolean {
    const now = this.#now();
    this.#expire(now);
    if (this.#seen.has(key)) return false;
    this.#seen.set(key, now);
    if (this.#seen.size > this.#maxEntries) {
      const oldest = this.#seen.keys().next();
      if (oldest.done !== true) this.#seen.delete(oldest.value);
    }
    return true;
  }

  #expire(now: number): void {
    for (const [key, at] of this.#seen) {
      if (now - at < this.#ttlMs) return;
      this.#seen.delete(key);
    }
  }
}
