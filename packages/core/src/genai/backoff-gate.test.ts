import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.js';
import { BackoffGate } from './backoff-gate.js';

function recordingLogger(): {
  warn: string[];
  debug: string[];
  logger: { warn(d: object, m?: string): void; debug(d: object, m?: string): void };
} {
  const warn: string[] = [];
  const debug: string[] = [];
  return {
    warn,
    debug,
    logger: {
      warn: (details, message) => warn.push(`${message ?? ''} ${JSON.stringify(details)}`),
      debug: (details, message) => debug.push(`${message ?? ''} ${JSON.stringify(details)}`),
    },
  };
}

function track(promise: Promise<void>): { settled: () => boolean; error: () => unknown } {
  let settled = false;
  let error: unknown;
  promise.then(
    () => {
      settled = true;
    },
    (reason: unknown) => {
      settled = true;
      error = reason;
    },
  );
  return { settled: () => settled, error: () => error };
}

describe('BackoffGate', () => {
  it('lets requests through at once while open', async () => {
    const gate = new BackoffGate({ clock: new ManualClock() });
    await expect(gate.wait()).resolves.toBeUndefined();
    expect(gate.remainingMs).toBe(0);
  });

  it('holds every waiter until the delay has passed, then releases them all', async () => {
    const clock = new ManualClock();
    const gate = new BackoffGate({ clock });
    gate.close(1_000);
    const waiters = [track(gate.wait()), track(gate.wait()), track(gate.wait())];
    await clock.advance(999);
    expect(waiters.map((w) => w.settled())).toEqual([false, false, false]);
    await clock.advance(1);
    expect(waiters.map((w) => w.settled())).toEqual([true, true, true]);
  });

  it('only ever extends: a shorter closing does not open it early, a longer one keeps waiters waiting', async () => {
    const clock = new ManualClock();
    const gate = new BackoffGate({ clock });
    gate.close(1_000);
    const waiter = track(gate.wait());
    await clock.advance(500);
    gate.close(100);
    expect(gate.remainingMs).toBe(500);
    gate.close(2_000);
    await clock.advance(500);
    expect(waiter.settled()).toBe(false);
    await clock.advance(1_499);
    expect(waiter.settled()).toBe(false);
    await clock.advance(1);
    expect(waiter.settled()).toBe(true);
  });

  it('warns once per closing with the delay; extensions are debug lines', async () => {
    const clock = new ManualClock();
    const logs = recordingLogger();
    const gate = new BackoffGate({ clock, logger: logs.logger });
    gate.close(1_000, { status: 429 });
    gate.close(1_500, { status: 429 });
    gate.close(0);
    expect(logs.warn).toEqual(['service pushed back: holding every request {"status":429,"delayMs":1000}']);
    expect(logs.debug).toHaveLength(1);
    await clock.advance(2_000);
    gate.close(300, { status: 529 });
    expect(logs.warn).toHaveLength(2);
    expect(logs.warn[1]).toContain('"delayMs":300');
  });

  it('stops waiting when the signal aborts, with its reason, and refuses an aborted signal at once', async () => {
    const clock = new ManualClock();
    const gate = new BackoffGate({ clock });
    gate.close(10_000);
    const controller = new AbortController();
    const waiter = track(gate.wait(controller.signal));
    const reason = new Error('message deleted');
    controller.abort(reason);
    await clock.advance(0);
    expect(waiter.error()).toBe(reason);
    await expect(gate.wait(controller.signal)).rejects.toBe(reason);
  });
});
