import { describe, expect, it, vi } from 'vitest';
import { LoopTurns } from './loop-turns.js';

/** Synchronous work of a handler's start, long enough for a timer set before it to be due after it. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Holds the loop, as parsing and a synchronous store do.
  }
}

describe('LoopTurns', () => {
  it('gives each taker a turn of the loop of its own, in the order they asked, timers due running between', async () => {
    const turns = new LoopTurns();
    const log: string[] = [];
    const takers = ['a', 'b', 'c'].map((name) =>
      turns.take().then(() => {
        log.push(name);
        setTimeout(() => log.push(`timer after ${name}`), 0);
        busyFor(3);
      }),
    );
    expect(turns.waiting).toBe(3);
    await Promise.all(takers);
    await vi.waitFor(() => expect(log).toHaveLength(6));
    expect(log).toEqual(['a', 'timer after a', 'b', 'timer after b', 'c', 'timer after c']);
    expect(turns.waiting).toBe(0);
  });

  it('lets arrivals go before the work waiting, each on a turn of its own', async () => {
    const turns = new LoopTurns();
    const order: string[] = [];
    const taken = [
      turns.take().then(() => order.push('work 1')),
      turns.take().then(() => order.push('work 2')),
      turns.take('arrival').then(() => order.push('arrival 1')),
      turns.take('arrival').then(() => order.push('arrival 2')),
    ];
    await Promise.all(taken);
    expect(order).toEqual(['arrival 1', 'arrival 2', 'work 1', 'work 2']);
  });

  it('lets a lone taker through on the next turn, and later ones after it', async () => {
    const turns = new LoopTurns();
    await turns.take();
    const order: string[] = [];
    await Promise.all([turns.take().then(() => order.push('first')), turns.take().then(() => order.push('second'))]);
    expect(order).toEqual(['first', 'second']);
  });

  it('runs work over a length in slices, a group of slices a turn, with other takers between groups', async () => {
    const turns = new LoopTurns();
    const log: string[] = [];
    // Asked for first: the first group runs at once all the same, and the next waits behind it.
    const other = turns.take().then(() => log.push('other'));
    const sliced = turns.inSlices(10, 3, 2, (from, to) => log.push(`${from}-${to}`));
    await Promise.all([sliced, other]);
    expect(log).toEqual(['0-3', '3-6', 'other', '6-9', '9-10']);
  });

  it('does nothing for nothing, without taking a turn', async () => {
    const turns = new LoopTurns();
    const log: string[] = [];
    await turns.inSlices(0, 3, 1, (from, to) => log.push(`${from}-${to}`));
    expect(log).toEqual([]);
    expect(turns.waiting).toBe(0);
  });
});
