import { spawn } from 'node:child_process';
import {
  type JobDelivery,
  JobGivenUpError,
  JobHandedOverError,
  JobLeftForLaterError,
  type QueuedJob,
} from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import {
  findRedisServer,
  installedOrSkipped,
  REDIS_INSTALL_HINT,
  type RedisServer,
  startRedis,
} from '@genbot/test-servers';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BullJobQueue, type BullJobQueueOptions } from './bull-job-queue.js';
import { bullJobId, queueName } from './queue-entry.js';
import { QueueUnavailableError } from '@genbot/core/errors';

const installed = installedOrSkipped({
  name: 'Redis',
  found: findRedisServer() !== undefined,
  install: REDIS_INSTALL_HINT,
});

const logger = createLogger({ level: 'silent' });
const ONE_EACH = { image: 1, stream: 1 } as const;

function imageJob(id: string, userId = 'U1', platform = 'slack'): QueuedJob {
  return { id, lane: 'image', platform, userId };
}

/** A handler that holds every job until the test lets it go. */
function heldHandler(): {
  deliveries: JobDelivery[];
  running: () => number;
  maxRunning: () => number;
  finish(id: string): void;
  finishAll(): void;
  handler: (delivery: JobDelivery) => Promise<void>;
} {
  const deliveries: JobDelivery[] = [];
  const waiting = new Map<string, () => void>();
  let running = 0;
  let maxRunning = 0;
  let releaseAll = false;
  return {
    deliveries,
    running: () => running,
    maxRunning: () => maxRunning,
    finish: (id) => waiting.get(id)?.(),
    finishAll: () => {
      releaseAll = true;
      for (const done of waiting.values()) done();
    },
    handler: (delivery) => {
      deliveries.push(delivery);
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      return new Promise<void>((resolve) => {
        const done = (): void => {
          waiting.delete(delivery.job.id);
          running -= 1;
          resolve();
        };
        if (releaseAll) done();
        else waiting.set(delivery.job.id, done);
      });
    },
  };
}

describe.runIf(installed)('BullJobQueue on a real Redis', () => {
  let redis: RedisServer;
  const open: BullJobQueue[] = [];
  const queueOf = (options: Partial<BullJobQueueOptions> = {}): BullJobQueue => {
    const queue = new BullJobQueue({ url: redis.url, platforms: ['slack', 'discord'], logger, ...options });
    open.push(queue);
    return queue;
  };
  /** BullMQ's own view of a queue, to check what is kept in Redis. */
  const rawQueue = (platform: string, lane: string): Queue =>
    new Queue(queueName(platform, lane), { connection: { url: redis.url } });

  beforeAll(async () => {
    redis = await startRedis({ persist: true });
  }, 30_000);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((queue) => queue.close()));
    const client = new Redis(redis.url);
    await client.flushall();
    client.disconnect();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('hands each job out once however often it is added, with ids BullMQ would misread', async () => {
    const queue = queueOf();
    const held = heldHandler();
    held.finishAll();
    for (const id of ['slack-ev-Ev1', '12345', 'dc-int:1:2', 'slack-ev-Ev1', '12345', 'dc-int:1:2']) {
      await queue.add(imageJob(id));
    }
    queue.process(held.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    await vi.waitFor(() => expect(held.deliveries).toHaveLength(3), { timeout: 10_000 });
    expect(held.deliveries.map((d) => [d.job.id, d.attempt])).toEqual([
      ['slack-ev-Ev1', 1],
      ['12345', 1],
      ['dc-int:1:2', 1],
    ]);
    expect(held.deliveries[0]?.job).toEqual(imageJob('slack-ev-Ev1'));
  });

  it('gives places in line from the waiting list (1: next), 0 for the running job, to any process', async () => {
    const queue = queueOf();
    const elsewhere = queueOf();
    for (const id of ['a', 'b', 'c']) await queue.add(imageJob(id));
    await queue.add({ id: 's', lane: 'stream', platform: 'slack', userId: 'U1' }, { firstTime: true });
    expect(await Promise.all(['a', 'b', 'c', 's', 'zz'].map((id) => elsewhere.position(id)))).toEqual([
      1,
      2,
      3,
      1,
      undefined,
    ]);
    const held = heldHandler();
    queue.process(held.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    // One of each lane runs: the image lane's first and the stream job.
    await vi.waitFor(() => expect(held.deliveries).toHaveLength(2), { timeout: 10_000 });
    expect(await Promise.all(['a', 'b', 'c', 's'].map((id) => elsewhere.position(id)))).toEqual([0, 1, 2, 0]);
    held.finishAll();
    await vi.waitFor(async () => expect(await queue.position('c')).toBeUndefined(), { timeout: 10_000 });
  });

  it('takes only the jobs of its own platforms', async () => {
    const producer = queueOf();
    await producer.add(imageJob('s1', 'U1', 'slack'));
    await producer.add(imageJob('d1', 'U1', 'discord'));
    const slack = heldHandler();
    queueOf().process(slack.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    await vi.waitFor(() => expect(slack.deliveries).toHaveLength(1), { timeout: 10_000 });
    const discord = heldHandler();
    queueOf().process(discord.handler, { concurrency: ONE_EACH, platforms: ['discord'] });
    await vi.waitFor(() => expect(discord.deliveries).toHaveLength(1), { timeout: 10_000 });
    expect(slack.deliveries.map((d) => d.job.id)).toEqual(['s1']);
    expect(discord.deliveries.map((d) => d.job.id)).toEqual(['d1']);
    await expect(producer.add(imageJob('x', 'U1', 'teams'))).rejects.toThrow(/teams, which this deploy does not run/);
    slack.finishAll();
    discord.finishAll();
  });

  it('runs at most its concurrency per lane, each lane on its own', async () => {
    const queue = queueOf();
    for (let i = 0; i < 5; i++) await queue.add(imageJob(`img-${i}`));
    for (let i = 0; i < 3; i++) await queue.add({ id: `str-${i}`, lane: 'stream', platform: 'slack', userId: 'U1' });
    const held = heldHandler();
    queue.process(held.handler, { concurrency: { image: 2, stream: 3 }, platforms: ['slack'] });
    await vi.waitFor(() => expect(held.running()).toBe(5), { timeout: 10_000 });
    const lanes = held.deliveries.map((d) => d.job.lane);
    expect(lanes.filter((lane) => lane === 'image')).toHaveLength(2);
    expect(lanes.filter((lane) => lane === 'stream')).toHaveLength(3);
    held.finishAll();
    await vi.waitFor(() => expect(held.deliveries).toHaveLength(8), { timeout: 10_000 });
    expect(held.maxRunning()).toBe(5);
  });

  it('starts no more jobs of a lane than the rate limit allows, across workers', async () => {
    const queue = queueOf({ rateLimits: { image: { max: 2, durationMs: 1_000 } } });
    for (let i = 0; i < 4; i++) await queue.add(imageJob(`r-${i}`));
    const starts: number[] = [];
    const handler = async (): Promise<void> => {
      starts.push(Date.now());
    };
    queue.process(handler, { concurrency: { image: 4, stream: 1 }, platforms: ['slack'] });
    queueOf({ rateLimits: { image: { max: 2, durationMs: 1_000 } } }).process(handler, {
      concurrency: { image: 4, stream: 1 },
      platforms: ['slack'],
    });
    await vi.waitFor(() => expect(starts).toHaveLength(4), { timeout: 10_000 });
    const [first = 0, , third = 0] = starts.sort((a, b) => a - b);
    expect(third - first).toBeGreaterThanOrEqual(900);
  });

  it('acknowledges on completion and keeps a bounded history', async () => {
    const queue = queueOf({ history: { completed: 2, failed: 1 } });
    for (let i = 0; i < 5; i++) await queue.add(imageJob(`h-${i}`));
    await queue.add(imageJob('fails'));
    let done = 0;
    queue.process(
      async ({ job }) => {
        done += 1;
        if (job.id === 'fails') throw new Error('handler gave up');
      },
      { concurrency: ONE_EACH, platforms: ['slack'] },
    );
    await vi.waitFor(() => expect(done).toBe(6), { timeout: 10_000 });
    const raw = rawQueue('slack', 'image');
    await vi.waitFor(
      async () =>
        expect(await raw.getJobCounts('completed', 'failed', 'wait', 'active')).toEqual({
          completed: 2,
          failed: 1,
          wait: 0,
          active: 0,
        }),
      { timeout: 10_000 },
    );
    expect((await raw.getJob(bullJobId('fails')))?.failedReason).toBe('handler gave up');
    await raw.close();
  });

  it('reads its own entries, leaves a newer deploy’s for later and fails unreadable ones in words', async () => {
    const raw = rawQueue('slack', 'image');
    await raw.add(
      'image',
      { schema: 99, id: 'future', lane: 'image', platform: 'slack', userId: 'U1', extra: 1 },
      { jobId: 'job-future' },
    );
    await raw.add('image', { id: 'no-version' }, { jobId: 'job-no-version' });
    await raw.add(
      'image',
      { schema: 1, id: 'bad-lane', lane: 'video', platform: 'slack', userId: 'U1' },
      { jobId: 'job-bad-lane' },
    );
    const queue = queueOf({ newerEntryDelayMs: 60_000 });
    await queue.add(imageJob('current'));
    const held = heldHandler();
    held.finishAll();
    queue.process(held.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    await vi.waitFor(async () => expect(await raw.getJobState('job-bad-lane')).toBe('failed'), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await raw.getJobState('job-future')).toBe('delayed'), { timeout: 10_000 });
    await vi.waitFor(() => expect(held.deliveries.map((d) => d.job.id)).toEqual(['current']), { timeout: 10_000 });
    expect((await raw.getJob('job-no-version'))?.failedReason).toMatch(
      /^Unreadable queue entry job-no-version: no schema version/,
    );
    expect((await raw.getJob('job-bad-lane'))?.failedReason).toMatch(/^Unreadable queue entry job-bad-lane: .*lane/s);
    await raw.close();
  });

  it('on close takes no new job and lets the running one finish', async () => {
    const queue = queueOf();
    await queue.add(imageJob('running'));
    await queue.add(imageJob('next'));
    const held = heldHandler();
    queue.process(held.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    await vi.waitFor(() => expect(held.deliveries).toHaveLength(1), { timeout: 10_000 });
    let closed = false;
    const closing = queue.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    held.finish('running');
    await closing;
    expect(held.deliveries.map((d) => d.job.id)).toEqual(['running']);
    const raw = rawQueue('slack', 'image');
    expect(await raw.getJobState(bullJobId('running'))).toBe('completed');
    expect(await raw.getJobState(bullJobId('next'))).toBe('waiting');
    await raw.close();
  });

  it('gives a job whose worker was killed mid-job to another worker, as attempt 2', async () => {
    const queue = queueOf({ lockDurationMs: 1_000, stalledIntervalMs: 500 });
    await queue.add(imageJob('killed-mid-job'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('./testing/worker-child.ts', import.meta.url).pathname, redis.url, 'slack'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      await vi.waitFor(() => expect(output).toContain('started killed-mid-job 1'), { timeout: 20_000, interval: 50 });
    } finally {
      child.kill('SIGKILL');
    }
    const held = heldHandler();
    held.finishAll();
    queue.process(held.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    await vi.waitFor(() => expect(held.deliveries).toHaveLength(1), { timeout: 15_000 });
    expect(held.deliveries[0]?.attempt).toBe(2);
    expect(held.deliveries[0]?.job.id).toBe('killed-mid-job');
  }, 40_000);

  it('stops a run whose hold on its job was lost, and the job runs again from another delivery', async () => {
    const options = { lockDurationMs: 1_000, stalledIntervalMs: 500 };
    await queueOf(options).add(imageJob('lost-hold'));
    const deliveries: JobDelivery[] = [];
    const handler = async (delivery: JobDelivery): Promise<void> => {
      deliveries.push(delivery);
      if (deliveries.length > 1) return;
      await new Promise((resolve) => delivery.signal.addEventListener('abort', resolve, { once: true }));
    };
    for (const queue of [queueOf(options), queueOf(options)]) {
      queue.process(handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    }
    await vi.waitFor(() => expect(deliveries).toHaveLength(1), { timeout: 10_000 });
    // What an event-loop stall longer than the lock does: the lock lapses while the run goes on.
    const client = new Redis(redis.url);
    await client.del(`bull:${queueName('slack', 'image')}:${bullJobId('lost-hold')}:lock`);
    client.disconnect();
    await vi.waitFor(() => expect(deliveries[0]?.signal.aborted).toBe(true), { timeout: 10_000 });
    expect(deliveries[0]?.signal.reason).toBeInstanceOf(JobHandedOverError);
    await vi.waitFor(() => expect(deliveries).toHaveLength(2), { timeout: 15_000 });
    expect(deliveries[1]).toMatchObject({ job: { id: 'lost-hold' }, attempt: 2 });
    expect(deliveries[1]?.signal.aborted).toBe(false);
  }, 30_000);

  it('gives up on a job that stalled too often: tells its owner once and never queues it again', async () => {
    const options = { lockDurationMs: 1_000, stalledIntervalMs: 500, maxStalledCount: 0 };
    const queue = queueOf(options);
    await queue.add(imageJob('stalls'));
    const deliveries: JobDelivery[] = [];
    const givenUp: QueuedJob[] = [];
    queue.process(
      async (delivery) => {
        deliveries.push(delivery);
        await new Promise((resolve) => delivery.signal.addEventListener('abort', resolve, { once: true }));
      },
      {
        concurrency: ONE_EACH,
        platforms: ['slack'],
        onGivenUp: async (job) => {
          givenUp.push(job);
        },
      },
    );
    await vi.waitFor(() => expect(deliveries).toHaveLength(1), { timeout: 10_000 });
    // The worker stalls: its lock lapses mid-job, and with no stall allowed the queue gives up.
    const client = new Redis(redis.url);
    await client.del(`bull:${queueName('slack', 'image')}:${bullJobId('stalls')}:lock`);
    client.disconnect();
    await vi.waitFor(() => expect(givenUp).toEqual([imageJob('stalls')]), { timeout: 15_000 });
    expect(deliveries).toHaveLength(1);
    // A resume of the store's unfinished jobs is told, not let in.
    await expect(queueOf().add(imageJob('stalls'))).rejects.toBeInstanceOf(JobGivenUpError);
    const raw = rawQueue('slack', 'image');
    expect(await raw.getJobState(bullJobId('stalls'))).toBe('failed');
    await raw.close();
    expect(deliveries).toHaveLength(1);
    expect(givenUp).toHaveLength(1);
  }, 30_000);

  it('refuses adds in words while Redis is away, loses nothing accepted and works on after', async () => {
    const queue = queueOf({ lockDurationMs: 1_000, stalledIntervalMs: 500 });
    await queue.add(imageJob('running'));
    await queue.add(imageJob('waiting'));
    const held = heldHandler();
    queue.process(held.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    await vi.waitFor(() => expect(held.deliveries).toHaveLength(1), { timeout: 10_000 });
    await redis.stop();
    try {
      const refusal = await queue.add(imageJob('during')).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(QueueUnavailableError);
      expect(String(refusal)).toMatch(/Redis \(REDIS_URL\) is not reachable: job during not queued/);
      // Its acknowledgement cannot reach Redis: the job is handed out again once Redis is back.
      held.finishAll();
    } finally {
      await redis.start();
    }
    await vi.waitFor(
      async () => {
        await queue.add(imageJob('after'));
      },
      { timeout: 15_000, interval: 200 },
    );
    await vi.waitFor(
      () => expect(new Set(held.deliveries.map((d) => d.job.id))).toEqual(new Set(['running', 'waiting', 'after'])),
      { timeout: 20_000 },
    );
    expect(held.deliveries.map((d) => d.job.id)).not.toContain('during');
  }, 40_000);
  it('adds anew an id whose earlier run ended (the store says it is unfinished)', async () => {
    const queue = queueOf();
    const held = heldHandler();
    held.finishAll();
    queue.process(held.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    await queue.add(imageJob('again'));
    await vi.waitFor(() => expect(held.deliveries).toHaveLength(1), { timeout: 10_000 });
    const raw = rawQueue('slack', 'image');
    await vi.waitFor(async () => expect(await raw.getJobState(bullJobId('again'))).toBe('completed'));
    await queue.add(imageJob('again'));
    await vi.waitFor(() => expect(held.deliveries).toHaveLength(2), { timeout: 10_000 });
    expect(held.deliveries.map((d) => d.job.id)).toEqual(['again', 'again']);
    await raw.close();
  });

  it('adds a job the store has just recorded (firstTime) once, however often, without asking for its state', async () => {
    const queue = queueOf();
    await queue.add(imageJob('fresh'), { firstTime: true });
    await queue.add(imageJob('fresh'), { firstTime: true });
    const raw = rawQueue('slack', 'image');
    expect(await raw.getJobCounts('wait')).toEqual({ wait: 1 });
    await raw.close();
  });

  it('puts a job its handler left for later back in line, for another worker', async () => {
    const producer = queueOf();
    await producer.add(imageJob('handed-on'));
    const stopping = queueOf();
    let closed: Promise<void> | undefined;
    stopping.process(
      async ({ job }) => {
        // As a worker on SIGTERM: it stops taking jobs, and hands on the one it was given.
        closed = stopping.close();
        throw new JobLeftForLaterError(job.id, 'stopping');
      },
      { concurrency: ONE_EACH, platforms: ['slack'] },
    );
    await vi.waitFor(() => expect(closed).toBeDefined(), { timeout: 10_000 });
    await closed;
    const held = heldHandler();
    held.finishAll();
    queueOf().process(held.handler, { concurrency: ONE_EACH, platforms: ['slack'] });
    await vi.waitFor(() => expect(held.deliveries.map((d) => d.job.id)).toEqual(['handed-on']), { timeout: 10_000 });
    const raw = rawQueue('slack', 'image');
    expect(await raw.getJobCounts('failed')).toEqual({ failed: 0 });
    await raw.close();
  });

  it('hands a job left for a while out again after that while', async () => {
    const queue = queueOf();
    await queue.add(imageJob('later'));
    const starts: number[] = [];
    queue.process(
      async ({ job, attempt }) => {
        starts.push(Date.now());
        if (starts.length === 1) throw new JobLeftForLaterError(job.id, 'database away', { afterMs: 800 });
        expect(attempt).toBe(2);
      },
      { concurrency: ONE_EACH, platforms: ['slack'] },
    );
    await vi.waitFor(() => expect(starts).toHaveLength(2), { timeout: 10_000 });
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(700);
    const raw = rawQueue('slack', 'image');
    await vi.waitFor(async () => expect(await raw.getJobState(bullJobId('later'))).toBe('completed'));
    await raw.close();
  });
});
