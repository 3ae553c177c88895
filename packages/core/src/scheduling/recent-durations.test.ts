import { describe, expect, it } from 'vitest';
import { RecentDurations } from './recent-durations.js';

describe('RecentDurations', () => {
  it('has no mean before the first sample, then averages only the latest samples', () => {
    const durations = new RecentDurations(3);
    expect(durations.mean()).toBeUndefined();
    durations.add(10);
    durations.add(20);
    expect(durations.mean()).toBe(15);
    durations.add(30);
    durations.add(60);
    // 10 fell out of the ring.
    expect(durations.mean()).toBeCloseTo((20 + 30 + 60) / 3);
  });
});
