import { describe, expect, it } from 'vitest';
import { RefusalNotices } from './refusal-notices.js';

describe('RefusalNotices', () => {
  it('says a refusal once a minute per person, channel and words', () => {
    let now = 0;
    const notices = new RefusalNotices(() => now);
    expect(notices.shouldSay('ada', 'c1', 'busy')).toBe(true);
    expect(notices.shouldSay('ada', 'c1', 'busy')).toBe(false);
    expect(notices.shouldSay('bob', 'c1', 'busy')).toBe(true);
    expect(notices.shouldSay('ada', 'c2', 'busy')).toBe(true);
    expect(notices.shouldSay('ada', 'c1', 'quota')).toBe(true);
    expect(notices.shouldSay('ada', 'c1', 'wait about 5 seconds')).toBe(true);
    expect(notices.shouldSay('ada', 'c1', 'wait about 10 seconds')).toBe(false);
    now = 59_999;
    expect(notices.shouldSay('ada', 'c1', 'busy')).toBe(false);
    now = 60_000;
    expect(notices.shouldSay('ada', 'c1', 'busy')).toBe(true);
  });

  it('forgets expired refusals once many are remembered', () => {
    let now = 0;
    const notices = new RefusalNotices(() => now);
    for (let i = 0; i < 1_000; i++) notices.shouldSay(`user${i}`, 'c', 'busy');
    now = 61_000;
    expect(notices.shouldSay('late', 'c', 'busy')).toBe(true);
    expect(notices.shouldSay('user1', 'c', 'busy')).toBe(true);
  });
});
