import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';

describe('eventually', () => {
  it('returns what the probe found once it found something', async () => {
    let calls = 0;
    const found = await eventually(async () => (++calls >= 3 ? `call ${calls}` : undefined));
    expect(found).toBe('call 3');
  });

  it('treats false and null as not yet, and true as found', async () => {
    let calls = 0;
    expect(await eventually(() => ++calls >= 2)).toBe(true);
    expect(await eventually(() => (calls++ > 3 ? 0 : null))).toBe(0);
  });

  it('says what it waited for when the time runs out', async () => {
    await expect(eventually(() => false, { timeoutMs: 30, what: () => 'the answer' })).rejects.toThrow(
      /not within 30 ms: the answer/,
    );
  });
});
