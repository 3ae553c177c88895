import type { ChannelPace } from '@genbot/core/scheduling';
import type { Redis } from 'ioredis';
import { reaching } from './redis-connection.js';

/**
 * A token bucket of one token per channel and kind, kept as the time its next
 * slot is free (Redis's clock): a reservation takes the later of that and now,
 * and moves it one interval on, in one atomic script.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local at = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
local nextAt = at + tonumber(ARGV[1])
redis.call('SET', KEYS[1], nextAt, 'PX', nextAt - now)
return at - now
`;

const HOLD_OFF = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local untilAt = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], untilAt, 'PX', math.max(1, untilAt - now))
return 0
`;

/** `ChannelPace` shared by every process on one Redis. */
export class RedisChannelPace implements ChannelPace {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, options: { prefix?: string } = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'genbot:pace:';
  }

  async reserve(channelId: string, kind: string, intervalMs: number): Promise<number> {
    const wait = await reaching('cannot pace calls in the channel', () =>
      this.#redis.eval(RESERVE, 1, this.#key(channelId, kind), Math.max(1, Math.ceil(intervalMs))),
    );
    return Number(wait);
  }

  async holdOff(channelId: string, kind: string, ms: number): Promise<void> {
    await reaching('cannot pace calls in the channel', () =>
      this.#redis.eval(HOLD_OFF, 1, this.#key(channelId, kind), Math.max(0, Math.ceil(ms))),
    );
  }

  #key(channelId: string, kind: string): string {
    return `${this.#prefix}${kind}:${channelId}`;
  }
}
