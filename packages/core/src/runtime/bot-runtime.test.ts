import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copy } from '../copy/copy.js';
import { CancelledError } from '../scheduling/cancellation-registry.js';
import { JobRejectedError } from '../scheduling/job-rejected-error.js';
import { JobScheduler } from '../scheduling/job-scheduler.js';
import { BotRuntime, type BotJob } from './bot-runtime.js';
import { ShutdownError } from './shutdown-error.js';

/** A job whose end the test decides, recording the signal it got and what it said last. */
interface Held {
  job: BotJob;
  signal(): AbortSignal | undefined;
  finish(): void;
}

function held(options: { trigger?: string; lastWord?: (reason: unknown) => Promise<void> } = {}): Held {
  let given: AbortSignal | undefined;
  let finish: () => void = () => undefined;
  return {
    job: {
      trigger: options.trigger,
      run: (signal) => {
        given = signal;
        return new Promise<void>((resolve) => {
          finish = resolve;
          const { lastWord } = options;
          if (lastWord !== undefined)
            signal.addEventListener('abort', () => void lastWord(signal.reason).then(resolve), { once: true });
        });
      },
      onError: () => undefined,
    },
    signal: () => given,
    finish: () => finish(),
  };
}

describe('BotRuntime', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs accepted jobs at once and drains when they end before the deadline', async () => {
    const runtime = new BotRuntime();
    const a = held();
    const b = held();
    expect(runtime.start(a.job)).toEqual({ accepted: true });
    expect(runtime.start(b.job)).toEqual({ accepted: true });
    expect(runtime.running).toBe(2);
    const drained = runtime.drain({ deadlineMs: 10_000 });
    a.finish();
    await vi.advanceTimersByTimeAsync(1_000);
    b.finish();
    await expect(drained).resolves.toEqual({ finishedInTime: true, abandoned: 0 });
    expect(runtime.running).toBe(0);
    expect(a.signal()?.aborted).toBe(false);
  });

  it('once closed, turns new work away with the one restart answer, and nothing runs', () => {
    const runtime = new BotRuntime();
    runtime.close();
    const late = held();
    expect(runtime.accepting).toBe(false);
    expect(runtime.start(late.job)).toEqual({ accepted: false, answer: copy.restarting });
    expect(late.signal()).toBeUndefined();
    expect(copy.restarting).toBe("🔄 I'm restarting: please try again in a minute.");
  });

  it('closing closes the scheduler: a job waiting in line is turned away and never starts', async () => {
    const scheduler = new JobScheduler({ image: { concurrency: 1 } });
    const runtime = new BotRuntime({ scheduler });
    let release: () => void = () => undefined;
    const running = scheduler.schedule('image', 'a', () => new Promise<void>((resolve) => (release = resolve)));
    let started = false;
    const waiting = scheduler.schedule('image', 'b', async () => {
      started = true;
    });
    runtime.close();
    await expect(waiting).rejects.toBeInstanceOf(JobRejectedError);
    await expect(waiting).rejects.toMatchObject({ reason: 'shutting_down' });
    release();
    await running;
    expect(started).toBe(false);
  });

  it('past the deadline aborts running jobs with a ShutdownError and waits for their last word', async () => {
    const runtime = new BotRuntime();
    const said: string[] = [];
    const job = held({
      lastWord: async (reason) => {
        // Posting the restart note takes a moment of its own.
        await new Promise((resolve) => setTimeout(resolve, 200));
        said.push(reason instanceof ShutdownError ? copy.interruptedByRestart('a lighthouse') : 'other');
      },
    });
    runtime.start(job.job);
    const drained = runtime.drain({ deadlineMs: 5_000, abortGraceMs: 1_000 });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(job.signal()?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(job.signal()?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(200);
    await expect(drained).resolves.toEqual({ finishedInTime: false, abandoned: 0 });
    expect(said).toEqual(["🔄 I'm restarting. “a lighthouse” will continue after the restart."]);
  });

  it('gives up on a job that ignores the abort after the grace, so the process can exit', async () => {
    const runtime = new BotRuntime();
    const stuck = held();
    runtime.start(stuck.job);
    const drained = runtime.drain({ deadlineMs: 1_000, abortGraceMs: 2_000 });
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(drained).resolves.toEqual({ finishedInTime: false, abandoned: 1 });
  });

  it('a second drain (another bot on the same runtime) is the first one', async () => {
    const runtime = new BotRuntime();
    const first = runtime.drain({ deadlineMs: 1_000 });
    expect(runtime.drain({ deadlineMs: 50_000 })).toBe(first);
    await expect(first).resolves.toEqual({ finishedInTime: true, abandoned: 0 });
  });

  it('cancels only the work its trigger started, with a CancelledError, and forgets it once ended', async () => {
    const runtime = new BotRuntime();
    const mention = held({ trigger: 'slack:C1:1.0001' });
    const other = held({ trigger: 'slack:C1:1.0002' });
    const command = held();
    for (const job of [mention, other, command]) runtime.start(job.job);
    expect(runtime.cancel('slack:C1:1.0001')).toBe(true);
    expect(mention.signal()?.reason).toBeInstanceOf(CancelledError);
    expect([other.signal()?.aborted, command.signal()?.aborted]).toEqual([false, false]);
    mention.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(runtime.cancel('slack:C1:1.0001')).toBe(false);
    // Shutdown still reaches a job started under a trigger.
    const drained = runtime.drain({ deadlineMs: 10, abortGraceMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    expect(other.signal()?.reason).toBeInstanceOf(ShutdownError);
    other.finish();
    command.finish();
    await expect(drained).resolves.toEqual({ finishedInTime: false, abandoned: 0 });
  });

  it("hands a job's escaped errors, thrown or rejected, to its onError and keeps going", async () => {
    const runtime = new BotRuntime();
    const errors: unknown[] = [];
    runtime.start({
      run: () => {
        throw new Error('thrown');
      },
      onError: (error) => errors.push(error),
    });
    runtime.start({ run: async () => Promise.reject(new Error('rejected')), onError: (error) => errors.push(error) });
    await expect(runtime.drain({ deadlineMs: 1_000 })).resolves.toEqual({ finishedInTime: true, abandoned: 0 });
    expect(errors.map((error) => (error as Error).message)).toEqual(['thrown', 'rejected']);
  });
});
