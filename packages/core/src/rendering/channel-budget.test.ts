import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.js';
import { InMemoryChannelPace } from '../scheduling/channel-pace.js';
import { ChannelBudget, type CallPriority } from './channel-budget.js';

function setUp() {
  const clock = new ManualClock();
  const budget = new ChannelBudget({ clock });
  const granted: string[] = [];
  const ask = (name: string, channel: string, kind: 'post' | 'edit', priority?: CallPriority) =>
    budget.turn(channel, kind, 1_000, { priority }).then(() => granted.push(`${name}@${clock.now()}`));
  return { clock, budget, granted, ask };
}

describe('ChannelBudget', () => {
  it('spaces calls of a kind in a channel by the interval, first come first served', async () => {
    const { clock, granted, ask } = setUp();
    void ask('a', 'C1', 'post');
    void ask('b', 'C1', 'post');
    void ask('c', 'C1', 'post');
    await clock.advance(0);
    expect(granted).toEqual(['a@0']);
    await clock.advance(1_000);
    expect(granted).toEqual(['a@0', 'b@1000']);
    await clock.advance(1_000);
    expect(granted).toEqual(['a@0', 'b@1000', 'c@2000']);
  });

  it('lets a burst of calls go at once, then no more than the burst in any burst of intervals', async () => {
    const clock = new ManualClock();
    const budget = new ChannelBudget({ clock });
    const granted: number[] = [];
    for (let i = 0; i < 7; i++)
      void budget.turn('C1', 'post', 1_000, { burst: 5 }).then((done) => {
        granted.push(clock.now());
        done();
      });
    await clock.advance(0);
    expect(granted).toEqual([0, 0, 0, 0, 0]);
    await clock.advance(4_999);
    expect(granted).toHaveLength(5);
    await clock.advance(1);
    expect(granted).toEqual([0, 0, 0, 0, 0, 5_000, 5_000]);
  });

  it('keeps channels and kinds apart: a post and an edit, or two channels, go at once', async () => {
    const { clock, granted, ask } = setUp();
    void ask('post', 'C1', 'post');
    void ask('edit', 'C1', 'edit');
    void ask('other', 'C2', 'post');
    await clock.advance(0);
    expect(granted.sort()).toEqual(['edit@0', 'other@0', 'post@0']);
  });

  it('serves closing calls, then replies, then statuses, then refusals when the channel is busy', async () => {
    const { clock, granted, ask } = setUp();
    void ask('first', 'C1', 'post');
    await clock.advance(0);
    void ask('refusal', 'C1', 'post', 'refusal');
    void ask('status', 'C1', 'post', 'status');
    void ask('reply', 'C1', 'post');
    void ask('closing', 'C1', 'post', 'closing');
    await clock.advance(4_000);
    expect(granted).toEqual(['first@0', 'closing@1000', 'reply@2000', 'status@3000', 'refusal@4000']);
  });

  it('counts the gap from when a call is done, so calls reach the platform an interval apart', async () => {
    const { clock, budget } = setUp();
    const grants: number[] = [];
    const first = budget.turn('C1', 'post', 1_000).then((done) => {
      grants.push(clock.now());
      return done;
    });
    void budget.turn('C1', 'post', 1_000).then(() => grants.push(clock.now()));
    await clock.advance(0);
    // The first call takes 300 ms on the way to the platform.
    await clock.advance(300);
    (await first)();
    await clock.advance(999);
    expect(grants).toEqual([0]);
    await clock.advance(1);
    expect(grants).toEqual([0, 1_300]);
  });

  it('holds the whole channel back after a rate limit', async () => {
    const { clock, budget, granted, ask } = setUp();
    void ask('a', 'C1', 'edit');
    await clock.advance(0);
    budget.holdOff('C1', 'edit', 5_000);
    void ask('b', 'C1', 'edit');
    await clock.advance(4_999);
    expect(granted).toEqual(['a@0']);
    await clock.advance(1);
    expect(granted).toEqual(['a@0', 'b@5000']);
  });

  it('gives up a turn whose signal aborts, with its reason, and serves the next', async () => {
    const { clock, budget, granted, ask } = setUp();
    void ask('a', 'C1', 'post');
    const controller = new AbortController();
    const dropped = budget.turn('C1', 'post', 1_000, { signal: controller.signal });
    void ask('c', 'C1', 'post');
    await clock.advance(0);
    controller.abort(new Error('stopped'));
    await expect(dropped).rejects.toThrow('stopped');
    await clock.advance(1_000);
    expect(granted).toEqual(['a@0', 'c@1000']);
  });

  it('forgets a channel once it is idle and its gap is over', async () => {
    const { clock, budget, ask } = setUp();
    void ask('a', 'C1', 'post');
    await clock.advance(0);
    expect(budget.activeChannels).toBe(1);
    await clock.advance(1_000);
    expect(budget.activeChannels).toBe(0);
  });

  it('takes a slot in a pace shared with other processes before each turn', async () => {
    const clock = new ManualClock();
    const pace = new InMemoryChannelPace({ now: () => clock.now() });
    // Another process just took the channel's slot.
    await pace.reserve('C1', 'post', 1_000);
    const budget = new ChannelBudget({ clock, pace });
    const granted: number[] = [];
    void budget.turn('C1', 'post', 1_000).then(() => granted.push(clock.now()));
    await clock.advance(999);
    expect(granted).toEqual([]);
    await clock.advance(1);
    expect(granted).toEqual([1_000]);
  });
});
