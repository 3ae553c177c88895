/** How long a refusal said once in a channel is not said again to the same person there. */
const QUIET_MS = 60_000;
/** Past this many remembered refusals, the expired ones are forgotten. */
const PRUNE_AT = 1_000;

/**
 * Some platforms (Discord) cannot answer a plain message privately, so a refusal (over a share, a
 * quota, a restart) is said in public. A person who sends six mentions in a row is told once; the
 * repeats of the same refusal in that channel within a minute are only marked on their message
 * (`ChatSurface.markTurnedAway`) instead of five more lines. One per process (`BotRuntime.notices`).
 */
export class RefusalNotices {
  readonly #now: () => number;
  readonly #quietUntil = new Map<string, number>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Whether to say `answer` in words (true), or only to mark the message as turned away. */
  shouldSay(userId: string, channelId: string, answer: string): boolean {
    const now = this.#now();
    // "Try again in about 5 seconds" and "…about 10 seconds" are the same refusal.
    const key = `${userId}\u0000${channelId}\u0000${answer.replace(/\d+/g, '#')}`;
    if ((this.#quietUntil.get(key) ?? 0) > now) return false;
    if (this.#quietUntil.size >= PRUNE_AT) {
      for (const [stale, until] of this.#quietUntil) if (until <= now) this.#quietUntil.delete(stale);
    }
    this.#quietUntil.set(key, now + QUIET_MS);
    return true;
  }
}
