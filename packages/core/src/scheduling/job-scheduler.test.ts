import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.js';
import { JobRejectedError } from './job-rejected-error.js';
import { JobScheduler, type JobSchedulerOptions } from './job-scheduler.js';
import type { JobLane } from './lane-limits.js';

/** A job whose end the test decides. */
interface Held {
  result: Promise<string>;
  positions: number[];
  started(): boolean;
  signal(): AbortSignal | undefined;
  finish(value?: string): Promise<void>;
  fail(error: unknown): Promise<void>;
}

/** Lets the scheduler's promise reactions (slot hand-over) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

function hold(scheduler: JobScheduler, lane: JobLane, userId: string, signal?: AbortSignal): Held {
  let resolveTask: (value: string) => void = () => undefined;
  let rejectTask: (error: unknown) => void = () => undefined;
  let taskSignal: AbortSignal | undefined;
  const positions: number[] = [];
  const result = scheduler.schedule(
    lane,
    userId,
    (given) => {
      taskSignal = given;
      return new Promise<string>((resolve, reject) => {
        resolveTask = resolve;
        rejectTask = reject;
      });
    },
    { signal, onQueued: (position) => positions.push(position) },
  );
  // Rejections are asserted where expected; keep the others from being reported as unhandled.
  result.catch(() => undefined);
  return {
    result,
    positions,
    started: () => taskSignal !== undefined,
    signal: () => taskSignal,
    finish: async (value = 'ok') => {
      resolveTask(value);
      await settle();
    },
    fail: async (error) => {
      rejectTask(error);
      await settle();
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

function scheduler(options: JobSchedulerOptions = {}): JobScheduler {
  return new JobScheduler(options);
}

describe('JobScheduler', () => {
  it('runs up to the lane cap at once and queues the rest; the lanes are independent', async () => {
    const s = scheduler({ image: { concurrency: 2 }, stream: { concurrency: 1 } });
    const images = ['a', 'b', 'c'].map((user) => hold(s, 'image', user));
    const stream = hold(s, 'stream', 'a');
    expect(images.map((job) => job.started())).toEqual([true, true, false]);
    expect(stream.started()).toBe(true);
    expect(s.stats()).toEqual({ image: { running: 2, queued: 1 }, stream: { running: 1, queued: 0 } });

    await images[0]?.finish('first');
    await expect(images[0]?.result).resolves.toBe('first');
    expect(images[2]?.started()).toBe(true);
    expect(s.stats().image).toEqual({ running: 2, queued: 0 });
  });

  it('uses the documented defaults: image 4, stream 16, two per user', () => {
    const s = scheduler();
    for (let i = 0; i < 6; i++) hold(s, 'image', `u${i}`);
    for (let i = 0; i < 18; i++) hold(s, 'stream', `u${i}`);
    expect(s.stats()).toEqual({ image: { running: 4, queued: 2 }, stream: { running: 16, queued: 2 } });
  });

  it('starts waiting jobs in FIFO order and reports each place in line at enqueue and as it moves', async () => {
    const s = scheduler({ image: { concurrency: 1 } });
    const running = hold(s, 'image', 'a');
    const [b, c, d] = ['b', 'c', 'd'].map((user) => hold(s, 'image', user));
    expect(running.positions).toEqual([]);
    expect([b?.positions, c?.positions, d?.positions]).toEqual([[1], [2], [3]]);

    await running.finish();
    expect(b?.started()).toBe(true);
    expect([c?.positions, d?.positions]).toEqual([
      [2, 1],
      [3, 2],
    ]);
    await b?.finish();
    expect(c?.started()).toBe(true);
    expect(d?.started()).toBe(false);
    expect(d?.positions).toEqual([3, 2, 1]);
  });

  it('refuses a user over their share of running-or-waiting jobs, per lane, until one ends', async () => {
    const s = scheduler({ image: { concurrency: 1, perUser: 2 } });
    const first = hold(s, 'image', 'u');
    hold(s, 'image', 'u');
    const third = hold(s, 'image', 'u');
    const error = await rejection(third.result);
    expect(error).toBeInstanceOf(JobRejectedError);
    expect(error).toMatchObject({ reason: 'user_limit', lane: 'image' });
    expect(third.started()).toBe(false);
    // Others and other lanes are not affected.
    expect(hold(s, 'image', 'other').positions).toEqual([2]);
    expect(hold(s, 'stream', 'u').started()).toBe(true);

    await first.finish();
    // u's second job took the freed slot; the new one waits behind 'other'.
    expect(hold(s, 'image', 'u').positions).toEqual([2]);
  });

  it('bounds the line: past queueLimit new work is refused, nothing queued', async () => {
    const s = scheduler({ image: { concurrency: 1, queueLimit: 2 } });
    hold(s, 'image', 'a');
    hold(s, 'image', 'b');
    hold(s, 'image', 'c');
    const late = hold(s, 'image', 'd');
    expect(await rejection(late.result)).toMatchObject({ reason: 'queue_full' });
    expect(late.positions).toEqual([]);
    expect(s.stats().image).toEqual({ running: 1, queued: 2 });
  });

  it('takes an aborted waiting job out of line: its task never runs, the ones behind move up, its user slot frees', async () => {
    const s = scheduler({ image: { concurrency: 1, perUser: 1 } });
    const running = hold(s, 'image', 'a');
    const controller = new AbortController();
    const leaving = hold(s, 'image', 'b', controller.signal);
    const behind = hold(s, 'image', 'c');
    const reason = new Error('message deleted');
    controller.abort(reason);
    expect(await rejection(leaving.result)).toBe(reason);
    expect(behind.positions).toEqual([2, 1]);
    expect(s.stats().image).toEqual({ running: 1, queued: 1 });
    // b's place is free again.
    expect(hold(s, 'image', 'b').positions).toEqual([2]);

    await running.finish();
    expect(leaving.started()).toBe(false);
    expect(behind.started()).toBe(true);
  });

  it('passes the caller signal to a running task, and frees the slot when the task settles', async () => {
    const s = scheduler({ stream: { concurrency: 1 } });
    const controller = new AbortController();
    const running = hold(s, 'stream', 'a', controller.signal);
    const next = hold(s, 'stream', 'b');
    controller.abort(new Error('stop'));
    expect(running.signal()?.aborted).toBe(true);
    expect(next.started()).toBe(false);
    await running.fail(running.signal()?.reason);
    expect(next.started()).toBe(true);
  });

  it('refuses an already aborted signal and frees the slot of a task that throws at once', async () => {
    const s = scheduler({ image: { concurrency: 1 } });
    const reason = new Error('gone');
    await expect(s.schedule('image', 'a', async () => 'never', { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    await expect(
      s.schedule('image', 'a', () => {
        throw new Error('sync failure');
      }),
    ).rejects.toThrow('sync failure');
    expect(s.stats().image).toEqual({ running: 0, queued: 0 });
  });

  it('estimates retryAfterSeconds from recent job durations and the running jobs, never under the minimum', async () => {
    const clock = new ManualClock();
    const s = scheduler({ image: { concurrency: 1, perUser: 1, queueLimit: 0 }, clock });
    const first = hold(s, 'image', 'a');
    // Before any job finished: the lane's typical duration (20 s for images).
    expect(await rejection(hold(s, 'image', 'a').result)).toMatchObject({ retryAfterSeconds: 20 });
    await clock.advance(30_000);
    await first.finish();

    hold(s, 'image', 'b');
    await clock.advance(10_000);
    // Jobs take 30 s lately and b's has run 10 s: about 20 s more, for b as for anyone waiting for the line.
    expect(await rejection(hold(s, 'image', 'b').result)).toMatchObject({
      reason: 'user_limit',
      retryAfterSeconds: 20,
    });
    expect(await rejection(hold(s, 'image', 'c').result)).toMatchObject({
      reason: 'queue_full',
      retryAfterSeconds: 20,
    });
    await clock.advance(35_000);
    expect(await rejection(hold(s, 'image', 'c').result)).toMatchObject({ retryAfterSeconds: 5 });
  });

  it('for a user whose jobs all wait, counts the jobs ahead and their own run', async () => {
    const clock = new ManualClock();
    const s = scheduler({ image: { concurrency: 1, perUser: 1, typicalDurationMs: 10_000 }, clock });
    hold(s, 'image', 'a');
    hold(s, 'image', 'b');
    hold(s, 'image', 'c');
    await clock.advance(4_000);
    // a ends in 6 s, b then runs 10 s, then c's own 10 s.
    expect(await rejection(hold(s, 'image', 'c').result)).toMatchObject({
      reason: 'user_limit',
      retryAfterSeconds: 26,
    });
  });

  it('once closed, turns away waiting and new jobs, and lets running ones finish', async () => {
    const s = scheduler({ image: { concurrency: 1 } });
    const running = hold(s, 'image', 'a');
    const waiting = hold(s, 'image', 'b');
    s.close();
    expect(await rejection(waiting.result)).toMatchObject({ reason: 'shutting_down', retryAfterSeconds: 60 });
    expect(await rejection(hold(s, 'stream', 'c').result)).toMatchObject({ reason: 'shutting_down', lane: 'stream' });
    await running.finish('done');
    await expect(running.result).resolves.toBe('done');
    expect(waiting.started()).toBe(false);
    expect(s.stats()).toEqual({ image: { running: 0, queued: 0 }, stream: { running: 0, queued: 0 } });
  });

  it('rejects limits that would stall or unbound a lane', () => {
    expect(() => scheduler({ image: { concurrency: 0 } })).toThrow(RangeError);
    expect(() => scheduler({ stream: { perUser: 1.5 } })).toThrow(RangeError);
    expect(() => scheduler({ stream: { queueLimit: Number.POSITIVE_INFINITY } })).toThrow(RangeError);
  });
});
