import { describe, expect, it } from 'vitest';
import { RateLimits } from './rate-limits.js';

describe('RateLimits', () => {
  it('limits per channel in a sliding second and answers the wait in whole seconds', () => {
    const limits = new RateLimits();
    limits.add({ method: 'chat.update', perSecond: 1, scope: 'channel' });
    expect(limits.check('chat.update', 'C1', 1000)).toBeUndefined();
    expect(limits.check('chat.update', 'C2', 1100)).toBeUndefined();
    expect(limits.check('chat.update', 'C1', 1500)).toBe(1);
    expect(limits.check('chat.postMessage', 'C1', 1500)).toBeUndefined();
    expect(limits.check('chat.update', 'C1', 2001)).toBeUndefined();
    expect(limits.hits).toEqual([{ method: 'chat.update', channel: 'C1', retryAfterSeconds: 1, atMs: 1500 }]);
  });

  it('refuses the next N calls on demand and can be switched off', () => {
    const limits = new RateLimits();
    const off = limits.add({ method: 'chat.update', failNext: 2, retryAfterSeconds: 3 });
    expect([
      limits.check('chat.update', 'C1'),
      limits.check('chat.update', 'C1'),
      limits.check('chat.update', 'C1'),
    ]).toEqual([3, 3, undefined]);
    limits.add({ method: 'chat.delete', failNext: 1 });
    off();
    limits.clear();
    expect(limits.check('chat.delete', 'C1')).toBeUndefined();
  });

  it('limits per minute, as Slack limits conversations.replies for apps outside the Marketplace', () => {
    const limits = new RateLimits();
    limits.add({ method: 'conversations.replies', perMinute: 1 });
    expect(limits.check('conversations.replies', 'C1', 0)).toBeUndefined();
    expect(limits.check('conversations.replies', 'C2', 15_000)).toBe(45);
    expect(limits.check('conversations.replies', 'C1', 60_000)).toBeUndefined();
  });
});
