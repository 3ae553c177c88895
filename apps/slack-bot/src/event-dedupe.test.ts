import { describe, expect, it } from 'vitest';
import { RecentKeys } from './event-dedupe.js';

describe('RecentKeys', () => {
  it('lets a key through once within the TTL, again after it', () => {
    let now = 1_000;
    const keys = new RecentKeys({ ttlMs: 100, now: () => now });
    expect(keys.firstSeen('Ev1')).toBe(true);
    expect(keys.firstSeen('Ev1')).toBe(false);
    now += 99;
    expect(keys.firstSeen('Ev1')).toBe(false);
    now += 1;
    expect(keys.firstSeen('Ev1')).toBe(true);
  });

  it('forgets expired keys as new ones come', () => {
    let now = 0;
    const keys = new RecentKeys({ ttlMs: 10, now: () => now });
    keys.firstSeen('a');
    keys.firstSeen('b');
    now = 20;
    keys.firstSeen('c');
    expect(keys.size).toBe(1);
  });

  it('stays within its size bound, dropping the oldest', () => {
    const keys = new RecentKeys({ ttlMs: 60_000, maxEntries: 2 });
    keys.firstSeen('a');
    keys.firstSeen('b');
    keys.firstSeen('c');
    expect(keys.size).toBe(2);
    expect(keys.firstSeen('a')).toBe(true);
    expect(keys.firstSeen('c')).toBe(false);
  });
});
