import {
  findRedisServer,
  installedOrSkipped,
  REDIS_INSTALL_HINT,
  type RedisServer,
  startRedis,
} from '@genbot/test-servers';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { RedisCancellations } from './redis-cancellations.js';
import { RedisChannelPace } from './redis-channel-pace.js';
import { QueueUnavailableError } from '@genbot/core/errors';
import { connectRedis } from './redis-connection.js';
import { RedisSeenKeys } from './redis-seen-keys.js';
import { RedisUserShares } from './redis-user-shares.js';

const installed = installedOrSkipped({
  name: 'Redis',
  found: findRedisServer() !== undefined,
  install: REDIS_INSTALL_HINT,
});

describe.runIf(installed)('coordination through a real Redis', () => {
  let redis: RedisServer;
  /** Two connections: what two processes on the same Redis see. */
  let one: Redis;
  let two: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    one = await connectRedis(redis.url);
    two = await connectRedis(redis.url);
  }, 30_000);
  afterEach(async () => {
    // After a test that stopped Redis, the connection comes back on its own.
    await vi.waitFor(() => one.flushall(), { timeout: 15_000, interval: 100 });
  });
  afterAll(async () => {
    one?.disconnect();
    two?.disconnect();
    await redis?.close();
  });

  it('lets an event through once across processes, and again after its time to live', async () => {
    const [a, b] = [new RedisSeenKeys(one), new RedisSeenKeys(two)];
    expect(await a.firstSeen('Ev1', 600_000)).toBe(true);
    expect(await b.firstSeen('Ev1', 600_000)).toBe(false);
    expect(await a.firstSeen('Ev1', 600_000)).toBe(false);
    expect(await one.pttl('genbot:seen:Ev1')).toBeGreaterThan(599_000);
    expect(await b.firstSeen('Ev2', 100)).toBe(true);
    await vi.waitFor(async () => expect(await a.firstSeen('Ev2', 100)).toBe(true), { timeout: 5_000, interval: 20 });
  });

  it('caps a user’s places per lane across processes, counts a job once, releases and expires them', async () => {
    const [a, b] = [new RedisUserShares(one), new RedisUserShares(two)];
    expect(await a.take('image', 'U1', 'j1', 2, 60_000)).toBe(true);
    expect(await b.take('image', 'U1', 'j1', 2, 60_000)).toBe(true);
    expect(await b.take('image', 'U1', 'j2', 2, 60_000)).toBe(true);
    expect(await a.take('image', 'U1', 'j3', 2, 60_000)).toBe(false);
    expect(await a.take('stream', 'U1', 'j3', 2, 60_000)).toBe(true);
    expect(await a.take('image', 'U2', 'j4', 2, 60_000)).toBe(true);
    expect(await b.held('image', 'U1')).toBe(2);
    await b.release('image', 'U1', 'j1');
    expect(await a.take('image', 'U1', 'j3', 2, 60_000)).toBe(true);
    // A process that died holding a place: it frees itself after the time to live.
    expect(await a.take('image', 'U9', 'dead', 1, 100)).toBe(true);
    expect(await b.take('image', 'U9', 'next', 1, 100)).toBe(false);
    await vi.waitFor(async () => expect(await b.take('image', 'U9', 'next', 1, 60_000)).toBe(true), {
      timeout: 5_000,
      interval: 20,
    });
    await vi.waitFor(async () => expect(await one.exists('genbot:shares:stream:U1')).toBe(1));
  });

  it('spaces calls in a channel across processes, per kind, and holds off for everyone', async () => {
    const [a, b] = [new RedisChannelPace(one), new RedisChannelPace(two)];
    expect(await a.reserve('C1', 'edit', 1_000)).toBe(0);
    const second = await b.reserve('C1', 'edit', 1_000);
    expect(second).toBeGreaterThan(900);
    expect(second).toBeLessThanOrEqual(1_000);
    const third = await a.reserve('C1', 'edit', 1_000);
    expect(third).toBeGreaterThan(1_900);
    expect(await b.reserve('C1', 'post', 1_000)).toBe(0);
    expect(await b.reserve('C2', 'edit', 1_000)).toBe(0);
    await a.holdOff('C2', 'edit', 30_000);
    expect(await b.reserve('C2', 'edit', 1_000)).toBeGreaterThan(29_000);
    expect(await one.pttl('genbot:pace:edit:C1')).toBeLessThanOrEqual(3_000);
  });

  it('tells a cancellation to every listening process and remembers it for jobs that start later', async () => {
    const ingress = new RedisCancellations(one);
    const workers = [new RedisCancellations(two), new RedisCancellations(two)];
    onTestFinished(() => {
      for (const worker of workers) worker.close();
    });
    const heard: string[][] = [[], []];
    await Promise.all(workers.map((worker, i) => worker.listen((trigger) => heard[i]?.push(trigger))));
    expect(await workers[0]?.cancelled('slack:C1:1.0001')).toBe(false);
    await ingress.cancel('slack:C1:1.0001');
    await vi.waitFor(() => expect(heard).toEqual([['slack:C1:1.0001'], ['slack:C1:1.0001']]), { timeout: 5_000 });
    expect(await workers[1]?.cancelled('slack:C1:1.0001')).toBe(true);
    expect(await workers[1]?.cancelled('slack:C1:1.0002')).toBe(false);
    expect(await one.pttl('genbot:cancelled:slack:C1:1.0001')).toBeGreaterThan(14 * 60_000);
  });

  it('says at start when Redis cannot be reached', async () => {
    await redis.stop();
    try {
      await expect(connectRedis(redis.url, { timeoutMs: 300 })).rejects.toThrow(
        /^Redis \(REDIS_URL\) is not reachable: no connection within 300 ms$/,
      );
    } finally {
      await redis.start();
    }
  });

  it('names REDIS_URL when Redis is away, and works again when it is back', async () => {
    const seen = new RedisSeenKeys(one);
    await redis.stop();
    try {
      await expect(seen.firstSeen('Ev3', 600_000)).rejects.toBeInstanceOf(QueueUnavailableError);
      await expect(new RedisUserShares(one).take('image', 'U1', 'j', 2, 1_000)).rejects.toThrow(
        /Redis \(REDIS_URL\) is not reachable: cannot count the user's jobs/,
      );
    } finally {
      await redis.start();
    }
    await vi.waitFor(async () => expect(await seen.firstSeen('Ev3', 600_000)).toBe(true), {
      timeout: 15_000,
      interval: 100,
    });
  }, 30_000);
});
