import { describe, expect, it } from 'vitest';
import { ByteBudget } from './byte-budget.js';

const MIB = 1024 * 1024;

/** Whether the promise settled by now (a macrotask later). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('ByteBudget', () => {
  it('lets holders through while they fit, the next one once bytes are given back', async () => {
    const budget = new ByteBudget(28 * MIB);
    const first = await budget.hold(13 * MIB);
    const second = await budget.hold(13 * MIB);
    const third = budget.hold(13 * MIB);
    expect(await settled(third)).toBe(false);
    expect(budget.held).toBe(26 * MIB);
    first();
    first();
    const release = await third;
    expect(budget.held).toBe(26 * MIB);
    second();
    release();
    expect(budget.held).toBe(0);
  });

  it('first come first served: a small holder does not overtake a large one waiting', async () => {
    const budget = new ByteBudget(20 * MIB);
    const held = await budget.hold(10 * MIB);
    const large = budget.hold(14 * MIB);
    const small = budget.hold(1 * MIB);
    expect(await settled(large)).toBe(false);
    expect(await settled(small)).toBe(false);
    held();
    (await large)();
    (await small)();
    expect(budget.held).toBe(0);
  });

  it('a holder larger than the budget goes alone rather than never', async () => {
    const budget = new ByteBudget(10 * MIB);
    const small = await budget.hold(1 * MIB);
    const huge = budget.hold(30 * MIB);
    expect(await settled(huge)).toBe(false);
    small();
    const release = await huge;
    expect(budget.held).toBe(30 * MIB);
    release();
  });

  it('a waiter that aborts gives up its place, and those behind it go on', async () => {
    const budget = new ByteBudget(10 * MIB);
    const held = await budget.hold(6 * MIB);
    const controller = new AbortController();
    const large = budget.hold(8 * MIB, controller.signal);
    const small = budget.hold(2 * MIB);
    controller.abort(new Error('withdrawn'));
    await expect(large).rejects.toThrow('withdrawn');
    (await small)();
    held();
    expect(budget.held).toBe(0);
  });
});
