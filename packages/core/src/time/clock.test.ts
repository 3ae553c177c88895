import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from './clock.js';
import { ManualClock } from '../../testing/manual-clock.js';

describe('systemClock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sleeps for the time asked, as fake timers move', async () => {
    let woke = false;
    const sleeping = systemClock.sleep(1_000).then(() => {
      woke = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(woke).toBe(true);
  });

  it('rejects with the signal’s reason when it aborts, early or already', async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    await expect(systemClock.sleep(10, controller.signal)).rejects.toBe(reason);
  });
});

describe('ManualClock', () => {
  it('wakes sleepers in time order, each at its own time', async () => {
    const clock = new ManualClock();
    const woke: Array<[string, number]> = [];
    void clock.sleep(300).then(() => woke.push(['late', clock.now()]));
    void clock.sleep(100).then(() => woke.push(['early', clock.now()]));
    await clock.advance(250);
    expect(woke).toEqual([['early', 100]]);
    await clock.advance(50);
    expect(woke).toEqual([
      ['early', 100],
      ['late', 300],
    ]);
  });

  it('rejects a sleeper whose signal aborts', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(100, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    await clock.advance(200);
  });
});
