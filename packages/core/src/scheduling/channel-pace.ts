/**
 * The per-channel call rate that every process posting into a channel shares
 * (Slack allows about one update a second in a channel, whoever makes it).
 * A caller reserves the next slot for its kind of call in the channel and
 * waits the answer before calling; the slots are spaced `intervalMs` apart.
 * It sits under a process's own per-channel queue: that one orders the
 * process's calls, this one spaces them against the other processes'.
 */
export interface ChannelPace {
  /** Reserves one call of `kind` in `channelId`; resolves to the milliseconds to wait before making it (0: now). */
  reserve(channelId: string, kind: string, intervalMs: number): Promise<number>;
  /** The platform asked to slow down: no slot of `kind` in `channelId` is given for `ms`. */
  holdOff(channelId: string, kind: string, ms: number): Promise<void>;
}

/** `ChannelPace` of one process; channels whose slots have all passed are forgotten. */
export class InMemoryChannelPace implements ChannelPace {
  readonly #now: () => number;
  /** `kind channel` -> when the next slot is free. */
  readonly #nextAt = new Map<string, number>();

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async reserve(channelId: string, kind: string, intervalMs: number): Promise<number> {
    const now = this.#now();
    this.#forgetPast(now);
    const key = `${kind} ${channelId}`;
    const at = Math.max(this.#nextAt.get(key) ?? now, now);
    this.#nextAt.set(key, at + intervalMs);
    return at - now;
  }

  async holdOff(channelId: string, kind: string, ms: number): Promise<void> {
    const key = `${kind} ${channelId}`;
    const until = this.#now() + ms;
    this.#nextAt.set(key, Math.max(this.#nextAt.get(key) ?? until, until));
  }

  #forgetPast(now: number): void {
    for (const [key, at] of this.#nextAt) if (at <= now) this.#nextAt.delete(key);
  }
}
