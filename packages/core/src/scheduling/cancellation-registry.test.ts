import { describe, expect, it } from 'vitest';
import { CancellationRegistry, CancelledError, cancelledByTrigger } from './cancellation-registry.js';

describe('CancellationRegistry', () => {
  it('cancel(key) aborts the work the trigger started, with a CancelledError', () => {
    const registry = new CancellationRegistry();
    const signal = registry.begin('slack:C1:1700.0001');
    const other = registry.begin('discord:42');
    expect(registry.cancel('slack:C1:1700.0001')).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(CancelledError);
    expect(cancelledByTrigger(signal)).toBe(true);
    expect(other.aborted).toBe(false);
    // Twice, or for a trigger with no work: nothing to do.
    expect(registry.cancel('slack:C1:1700.0001')).toBe(false);
    expect(registry.cancel('slack:C9:1')).toBe(false);
  });

  it('forgets a key once all its work has ended, so a later cancel does nothing', () => {
    const registry = new CancellationRegistry();
    const first = registry.begin('k');
    const second = registry.begin('k');
    registry.end('k');
    expect(registry.size).toBe(1);
    registry.cancel('k');
    expect([first.aborted, second.aborted]).toEqual([true, true]);
    // Cancelled stays cancelled while work is still running under the key.
    expect(registry.begin('k').aborted).toBe(true);
    registry.end('k');
    registry.end('k');
    expect(registry.size).toBe(0);
    expect(registry.cancel('k')).toBe(false);
  });

  it('aborts on shutdown and on the caller signal too, with their reasons (not a cancellation)', () => {
    const shutdown = new AbortController();
    const registry = new CancellationRegistry({ shutdown: shutdown.signal });
    const caller = new AbortController();
    const a = registry.begin('a');
    const b = registry.begin('b', caller.signal);
    caller.abort(new Error('timeout'));
    expect(b.aborted).toBe(true);
    expect(cancelledByTrigger(b)).toBe(false);
    expect(a.aborted).toBe(false);
    shutdown.abort(new Error('shutting down'));
    expect(a.aborted).toBe(true);
    expect(cancelledByTrigger(a)).toBe(false);
  });

  it('is bounded: past the limit the oldest trigger is forgotten (it can no longer be cancelled)', () => {
    const registry = new CancellationRegistry({ limit: 2 });
    const oldest = registry.begin('1');
    registry.begin('2');
    registry.begin('3');
    expect(registry.size).toBe(2);
    expect(registry.cancel('1')).toBe(false);
    expect(oldest.aborted).toBe(false);
    expect(registry.cancel('3')).toBe(true);
  });

  it('run() ends the key whatever the work does', async () => {
    const registry = new CancellationRegistry();
    await expect(registry.run('ok', async (signal) => signal.aborted)).resolves.toBe(false);
    await expect(
      registry.run('boom', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(registry.size).toBe(0);
  });
});
