import { createHash } from 'node:crypto';

export interface RateLimitRule {
  /** `METHOD /path/:param/...` relative to /api/v10, e.g. `PATCH /channels/:id/messages/:id`. */
  readonly route: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Refuse the next N matching requests outright, whatever the count: a deterministic way to provoke one 429. */
  readonly failNext?: number;
  /** Let this many matching requests through before `failNext` applies: to provoke the 429 on a later call of a route. */
  readonly failAfter?: number;
}

export interface RateLimitSwitch {
  /** Switches this rule off again. */
  off(): void;
}

export interface RateLimitDecision {
  readonly route: string;
  readonly headers: Record<string, string>;
  /** Seconds to wait when the request is over the limit; undefined when it may proceed. */
  readonly retryAfter?: number;
}

/** Discord's global limit: every request of the bot counts, whichever route and connection it takes. */
export interface GlobalRateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

interface Bucket {
  count: number;
  resetAt: number;
}

interface ActiveRule extends RateLimitRule {
  readonly method: string;
  readonly segments: readonly string[];
  readonly hash: string;
  readonly buckets: Map<string, Bucket>;
  failuresLeft: number;
  passesLeft: number;
}

/**
 * Per-route limits that tests switch on. Buckets are per rule and major parameter (the first
 * path parameter: channel, webhook or guild), as Discord's are, so discord.js's per-bucket
 * queue sees the same headers it would in production.
 */
export class RateLimits {
  readonly #rules = new Set<ActiveRule>();
  readonly #now: () => number;
  #global: (GlobalRateLimit & { bucket: Bucket }) | undefined;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  add(rule: RateLimitRule): RateLimitSwitch {
    const [method, path] = rule.route.trim().split(/\s+/);
    if (!method || !path || rule.limit < 1 || rule.windowMs <= 0)
      throw new Error(`bad rate limit rule ${JSON.stringify(rule)}`);
    const active: ActiveRule = {
      ...rule,
      method: method.toUpperCase(),
      segments: splitPath(path),
      hash: createHash('sha1').update(rule.route).digest('hex').slice(0, 16),
      buckets: new Map(),
      failuresLeft: rule.failNext ?? 0,
      passesLeft: rule.failAfter ?? 0,
    };
    this.#rules.add(active);
    return { off: () => this.#rules.delete(active) };
  }

  /** Switches the bot's global limit on, replacing any earlier one. */
  setGlobal(limit: GlobalRateLimit): RateLimitSwitch {
    if (limit.limit < 1 || limit.windowMs <= 0) throw new Error(`bad global rate limit ${JSON.stringify(limit)}`);
    const active = { ...limit, bucket: { count: 0, resetAt: 0 } };
    this.#global = active;
    return {
      off: () => {
        if (this.#global === active) this.#global = undefined;
      },
    };
  }

  clear(): void {
    this.#rules.clear();
    this.#global = undefined;
  }

  /**
   * Counts a request against the global limit; the seconds to wait when it is
   * over, undefined when it may proceed (or no global limit is on). A fixed
   * window from the first request after the last one ended, like the per-route buckets.
   */
  takeGlobal(): number | undefined {
    const global = this.#global;
    if (global === undefined) return undefined;
    const now = this.#now();
    if (now >= global.bucket.resetAt) global.bucket = { count: 0, resetAt: now + global.windowMs };
    if (global.bucket.count >= global.limit) return Math.max(0, global.bucket.resetAt - now) / 1000;
    global.bucket.count += 1;
    return undefined;
  }

  /** Counts a request against the first matching rule; undefined when no rule applies. */
  take(method: string, path: string): RateLimitDecision | undefined {
    const segments = splitPath(path);
    for (const rule of this.#rules) {
      const major = matchMajor(rule, method.toUpperCase(), segments);
      if (major === undefined) continue;
      const now = this.#now();
      let bucket = rule.buckets.get(major);
      if (!bucket || now >= bucket.resetAt) {
        bucket = { count: 0, resetAt: now + rule.windowMs };
        rule.buckets.set(major, bucket);
      }
      const passing = rule.passesLeft > 0;
      if (passing) rule.passesLeft -= 1;
      const forced = !passing && rule.failuresLeft > 0;
      if (forced) rule.failuresLeft -= 1;
      const limited = forced || bucket.count >= rule.limit;
      if (!limited) bucket.count += 1;
      const resetAfter = Math.max(0, bucket.resetAt - now) / 1000;
      const headers = {
        'X-RateLimit-Limit': String(rule.limit),
        'X-RateLimit-Remaining': String(forced ? 0 : rule.limit - bucket.count),
        'X-RateLimit-Reset': (bucket.resetAt / 1000).toFixed(3),
        'X-RateLimit-Reset-After': resetAfter.toFixed(3),
        'X-RateLimit-Bucket': rule.hash,
      };
      return limited ? { route: rule.route, headers, retryAfter: resetAfter } : { route: rule.route, headers };
    }
    return undefined;
  }
}

function splitPath(path: string): string[] {
  return path
    .split('?')[0]!
    .split('/')
    .filter((segment) => segment !== '');
}

/** The rule's major parameter value when the request matches it. */
function matchMajor(rule: ActiveRule, method: string, segments: readonly string[]): string | undefined {
  if (rule.method !== method || rule.segments.length !== segments.length) return undefined;
  let major: string | undefined;
  for (const [index, pattern] of rule.segments.entries()) {
    const actual = segments[index]!;
    if (pattern.startsWith(':')) major ??= actual;
    else if (pattern !== actual) return undefined;
  }
  return major ?? '';
}
