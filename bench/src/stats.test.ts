import { describe, expect, it } from 'vitest';
import { median, percentile } from './stats.js';

describe('percentile', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);

  it('takes the nearest rank, whatever the input order', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
  });

  it('rounds the rank up on small samples', () => {
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([3, 1, 2], 99)).toBe(3);
    expect(percentile([7], 99)).toBe(7);
  });

  it('refuses no samples and out-of-range percentiles', () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('median', () => {
  it('averages the two middle samples of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
  });
});
