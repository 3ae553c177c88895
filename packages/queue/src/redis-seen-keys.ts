import type { SeenKeys } from '@genbot/core/scheduling';
import type { Redis } from 'ioredis';
import { reaching } from './redis-connection.js';

/** `SeenKeys` shared by every process on one Redis: the first SET NX wins, and the key expires by itself. */
export class RedisSeenKeys implements SeenKeys {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, options: { prefix?: string } = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'genbot:seen:';
  }

  async firstSeen(key: string, ttlMs: number): Promise<boolean> {
    const set = await reaching('cannot tell whether an event is new', () =>
      this.#redis.set(`${this.#prefix}${key}`, '1', 'PX', ttlMs, 'NX'),
    );
    return set === 'OK';
  }
}
