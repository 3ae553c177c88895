import { describe, expect, it } from 'vitest';
import { Slots } from './slots.js';

/** Work that ends when its `end` is called. */
function pending(log: string[], name: string) {
  let end: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    end = resolve;
  });
  return {
    end: () => end(),
    work: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
  };
}

describe('Slots', () => {
  it('runs at most its count at once, the others in arrival order as slots come free', async () => {
    const slots = new Slots(2);
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => pending(log, name));
    const runs = [a, b, c, d].map((p) => slots.run(p?.work ?? (async () => '')));
    await Promise.resolve();
    expect(log).toEqual(['start a', 'start b']);
    expect(slots.waiting).toBe(2);
    b?.end();
    await runs[1];
    await Promise.resolve();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    a?.end();
    c?.end();
    d?.end();
    await expect(Promise.all(runs)).resolves.toEqual(['a', 'b', 'c', 'd']);
    expect(log.filter((line) => line.startsWith('start'))).toEqual(['start a', 'start b', 'start c', 'start d']);
  });

  it('gives the slot back when the work fails', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(slots.run(async () => 'yes')).resolves.toBe('yes');
  });

  it('refuses a count that is not a whole number of at least 1', () => {
    expect(() => new Slots(0)).toThrow(RangeError);
    expect(() => new Slots(1.5)).toThrow(RangeError);
  });
});
