import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { processTurns } from '../time/loop-turns.js';
import { sha256Hex } from './image-digest.js';

describe('sha256Hex', () => {
  it.each([0, 1, 1024 * 1024, 3 * 1024 * 1024 + 7])('equals a hash of the whole %i bytes', async (size) => {
    const bytes = randomBytes(size);
    expect(await sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('lets other work take turns between its slices', async () => {
    const order: string[] = [];
    const hashed = sha256Hex(randomBytes(4 * 1024 * 1024)).then(() => order.push('hashed'));
    const other = processTurns.take().then(() => order.push('other'));
    await Promise.all([hashed, other]);
    expect(order).toEqual(['other', 'hashed']);
  });
});
