import { describe, expect, it } from 'vitest';
import { ownBytes, releaseBytes } from './owned-bytes.js';

describe('releaseBytes', () => {
  it('frees memory from ownBytes: it and every view on it read as empty', () => {
    const body = ownBytes(1024 * 1024).fill(1);
    const view = body.subarray(10, 20);
    releaseBytes(view);
    expect(body.byteLength).toBe(0);
    expect(view.byteLength).toBe(0);
    releaseBytes(body);
  });

  it("leaves anything else alone: a slice of Node's shared pool, a caller's buffer", () => {
    const pooled = Buffer.from('small');
    const neighbour = Buffer.from('neighbour');
    const callers = Buffer.allocUnsafeSlow(64).fill(2);
    releaseBytes(pooled);
    releaseBytes(callers);
    expect(pooled.toString()).toBe('small');
    expect(neighbour.toString()).toBe('neighbour');
    expect(callers.byteLength).toBe(64);
  });
});
