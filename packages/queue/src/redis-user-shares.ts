import type { JobLane, UserShares } from '@genbot/core/scheduling';
import type { Redis } from 'ioredis';
import { reaching } from './redis-connection.js';

/**
 * One sorted set per user and lane: members are job ids, scores when their
 * place expires (Redis's own clock, so processes' clocks need not agree).
 * Expired places are dropped before every count.
 */
const TAKE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local ttl = tonumber(ARGV[3])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
local last = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
redis.call('PEXPIRE', KEYS[1], last - now)
return 1
`;

const HELD = `
local t = redis.call('TIME')
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t[1] * 1000 + math.floor(t[2] / 1000))
return redis.call('ZCARD', KEYS[1])
`;

/** `UserShares` shared by every process on one Redis. */
export class RedisUserShares implements UserShares {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, options: { prefix?: string } = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'genbot:shares:';
  }

  async take(lane: JobLane, userId: string, jobId: string, cap: number, ttlMs: number): Promise<boolean> {
    const taken = await reaching("cannot count the user's jobs", () =>
      this.#redis.eval(TAKE, 1, this.#key(lane, userId), jobId, cap, Math.ceil(ttlMs)),
    );
    return taken === 1;
  }

  async release(lane: JobLane, userId: string, jobId: string): Promise<void> {
    await reaching("cannot give back the user's place", () => this.#redis.zrem(this.#key(lane, userId), jobId));
  }

  async held(lane: JobLane, userId: string): Promise<number> {
    const count = await reaching("cannot count the user's jobs", () =>
      this.#redis.eval(HELD, 1, this.#key(lane, userId)),
    );
    return Number(count);
  }

  #key(lane: JobLane, userId: string): string {
    return `${this.#prefix}${lane}:${userId}`;
  }
}
