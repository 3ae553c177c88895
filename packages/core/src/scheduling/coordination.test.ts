import { describe, expect, it } from 'vitest';
import { InMemoryChannelPace } from './channel-pace.js';
import { InMemorySeenKeys } from './seen-keys.js';
import { InMemoryUserShares } from './user-shares.js';

function clock(): { now: () => number; advance(ms: number): void } {
  let now = 1_000;
  return { now: () => now, advance: (ms) => (now += ms) };
}

describe('InMemorySeenKeys', () => {
  it('lets a key through once within its time to live, and again after it', async () => {
    const time = clock();
    const seen = new InMemorySeenKeys({ now: time.now });
    expect(await seen.firstSeen('Ev1', 600_000)).toBe(true);
    time.advance(599_999);
    expect(await seen.firstSeen('Ev1', 600_000)).toBe(false);
    time.advance(1);
    expect(await seen.firstSeen('Ev1', 600_000)).toBe(true);
  });

  it('keeps at most maxEntries keys, dropping the oldest', async () => {
    const seen = new InMemorySeenKeys({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) expect(await seen.firstSeen(key, 60_000)).toBe(true);
    expect(await seen.firstSeen('a', 60_000)).toBe(true);
    expect(await seen.firstSeen('c', 60_000)).toBe(false);
  });
});

describe('InMemoryUserShares', () => {
  it('caps a user per lane, counts a job once and frees places on release or expiry', async () => {
    const time = clock();
    const shares = new InMemoryUserShares({ now: time.now });
    expect(await shares.take('image', 'U1', 'j1', 2, 10_000)).toBe(true);
    expect(await shares.take('image', 'U1', 'j1', 2, 10_000)).toBe(true);
    expect(await shares.take('image', 'U1', 'j2', 2, 10_000)).toBe(true);
    expect(await shares.take('image', 'U1', 'j3', 2, 10_000)).toBe(false);
    expect(await shares.take('stream', 'U1', 'j3', 2, 10_000)).toBe(true);
    expect(await shares.take('image', 'U2', 'j4', 2, 10_000)).toBe(true);
    await shares.release('image', 'U1', 'j1');
    expect(await shares.held('image', 'U1')).toBe(1);
    time.advance(10_000);
    expect(await shares.held('image', 'U1')).toBe(0);
  });
});

describe('InMemoryChannelPace', () => {
  it('spaces calls of a kind in a channel an interval apart, and holds off when asked', async () => {
    const time = clock();
    const pace = new InMemoryChannelPace({ now: time.now });
    expect(await pace.reserve('C1', 'edit', 1_000)).toBe(0);
    expect(await pace.reserve('C1', 'edit', 1_000)).toBe(1_000);
    expect(await pace.reserve('C1', 'post', 1_000)).toBe(0);
    expect(await pace.reserve('C2', 'edit', 1_000)).toBe(0);
    time.advance(3_000);
    expect(await pace.reserve('C1', 'edit', 1_000)).toBe(0);
    await pace.holdOff('C1', 'edit', 5_000);
    expect(await pace.reserve('C1', 'edit', 1_000)).toBe(5_000);
  });
});
