/**
 * Switchable rate limits. Slack's limits are per method and per workspace, with `chat.postMessage`
 * and edits also limited per channel; off by default so tests opt in to 429s.
 */
export interface RateLimitRule {
  method: string;
  /** Calls allowed in any sliding one-second window (per channel with `scope: 'channel'`). */
  perSecond?: number;
  /** Calls allowed in any sliding one-minute window, as Slack's 2025 limit on conversations.replies. */
  perMinute?: number;
  /** Refuse the next N calls outright, whatever their rate: a deterministic way to provoke 429s. */
  failNext?: number;
  scope?: 'channel' | 'workspace';
  /** The `Retry-After` to send; by default the seconds until the window frees up (at least 1, as Slack sends). */
  retryAfterSeconds?: number;
}

export interface RateLimitHit {
  method: string;
  channel?: string;
  retryAfterSeconds: number;
  atMs: number;
}

interface ActiveRule {
  rule: RateLimitRule;
  remainingFailures: number;
  /** Call times (ms) per scope key within the last second. */
  windows: Map<string, number[]>;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;

export class RateLimits {
  readonly hits: RateLimitHit[] = [];
  #rules: ActiveRule[] = [];

  /** Switches a limit on; the returned function switches it off again. */
  add(rule: RateLimitRule): () => void {
    const active: ActiveRule = { rule, remainingFailures: rule.failNext ?? 0, windows: new Map() };
    this.#rules.push(active);
    return () => {
      this.#rules = this.#rules.filter((r) => r !== active);
    };
  }

  clear(): void {
    this.#rules = [];
  }

  /** Counts the call; answers the `Retry-After` seconds when a rule refuses it. */
  check(method: string, channel: string | undefined, nowMs = Date.now()): number | undefined {
    for (const active of this.#rules) {
      if (active.rule.method !== method) continue;
      const refusal = this.#refusal(active, channel, nowMs);
      if (refusal !== undefined) {
        this.hits.push({ method, retryAfterSeconds: refusal, atMs: nowMs, ...(channel !== undefined && { channel }) });
        return refusal;
      }
    }
    return undefined;
  }

  #refusal(active: ActiveRule, channel: string | undefined, nowMs: number): number | undefined {
    const { rule } = active;
    if (active.remainingFailures > 0) {
      active.remainingFailures -= 1;
      return rule.retryAfterSeconds ?? 1;
    }
    const allowed = rule.perSecond ?? rule.perMinute;
    if (allowed === undefined) return undefined;
    const windowMs = rule.perSecond === undefined ? MINUTE_MS : SECOND_MS;
    const key = rule.scope === 'channel' ? (channel ?? '') : '';
    const recent = (active.windows.get(key) ?? []).filter((t) => nowMs - t < windowMs);
    if (recent.length >= allowed) {
      active.windows.set(key, recent);
      const oldest = recent[0] ?? nowMs;
      return rule.retryAfterSeconds ?? Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000));
    }
    recent.push(nowMs);
    active.windows.set(key, recent);
    return undefined;
  }
}
