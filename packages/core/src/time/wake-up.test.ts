import { describe, expect, it } from 'vitest';
import { wakeUp } from './wake-up.js';

describe('wakeUp', () => {
  it('aborts with one shared reason instead of building an exception each time', () => {
    const first = new AbortController();
    const second = new AbortController();
    wakeUp(first);
    wakeUp(second);
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(true);
    expect(first.signal.reason).toBe(second.signal.reason);
    expect(first.signal.reason).not.toBeInstanceOf(DOMException);
  });

  it('wakes a wait on the signal, which sees it was cut short', async () => {
    const controller = new AbortController();
    const woken = new Promise<boolean>((resolve) => {
      controller.signal.addEventListener('abort', () => resolve(controller.signal.aborted), { once: true });
    });
    wakeUp(controller);
    await expect(woken).resolves.toBe(true);
  });
});
