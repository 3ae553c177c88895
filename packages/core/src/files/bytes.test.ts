import { describe, expect, it } from 'vitest';
import { asBuffer } from './bytes.js';

describe('asBuffer', () => {
  it('shares memory with the bytes instead of copying them', () => {
    const backing = new Uint8Array([9, 1, 2, 3, 9]);
    const view = backing.subarray(1, 4);
    const buffer = asBuffer(view);
    expect([...buffer]).toEqual([1, 2, 3]);
    backing[2] = 7;
    expect(buffer[1]).toBe(7);
  });
});
