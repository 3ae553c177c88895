import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { ChannelBudget } from '../rendering/channel-budget.js';
import type { ChatDeps } from './deps.js';
import { PRIVATE_NOTE_AFTER_MS, say, sayPrivately, tellPrivatelyUnlessShown } from './status-message.js';

const target = { channelId: 'C1', threadId: 'T1' };
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function deps(surface: RecordingSurface): ChatDeps {
  const unused = () => {
    throw new Error('not used');
  };
  return {
    surface,
    images: { generateImages: unused },
    chat: { streamMessage: unused },
    config: { imageModel: 'i', chatModel: 'c' },
    logger: silent,
    channels: new ChannelBudget(),
  };
}

const never = new Promise<void>(() => undefined);

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('telling a user privately where their request stands', () => {
  it('in a channel too busy to show it soon: privately at once, then publicly in turn', async () => {
    const surface = new RecordingSurface({
      private: true,
      limits: { minPostIntervalMs: 1_000, minPrivateIntervalMs: 100 },
    });
    const d = deps(surface);
    // Six answers for one channel at once: at one post a second, the last shows five seconds from now.
    const answers = Array.from({ length: 6 }, (_, i) => say(d, target, `answer ${String(i)}`, 'refusal'));
    for (const [i, answer] of answers.entries()) {
      tellPrivatelyUnlessShown(d, target, `U${String(i)}`, () => `answer ${String(i)}`, answer);
    }
    await vi.advanceTimersByTimeAsync(PRIVATE_NOTE_AFTER_MS + 500);
    // Those shown in time are not told twice; the others are told privately, once each, at the private pace.
    const shownInTime = Math.floor(PRIVATE_NOTE_AFTER_MS / 1_000);
    expect(surface.privates.map((note) => note.userId)).toEqual(
      Array.from({ length: 6 - shownInTime }, (_, i) => `U${String(shownInTime + i)}`),
    );
    expect(surface.privates.map((note) => note.at)).toEqual(
      Array.from({ length: 6 - shownInTime }, (_, i) => PRIVATE_NOTE_AFTER_MS + i * 100),
    );
    await vi.runAllTimersAsync();
    await Promise.all(answers);
    expect(surface.texts()).toHaveLength(6);
    expect(surface.privates).toHaveLength(6 - shownInTime);
  });

  it("paces private notes in the channel's budget, apart from its posts, and holds them back on a 429", async () => {
    const surface = new RecordingSurface({
      private: true,
      limits: { minPostIntervalMs: 1_000, minPrivateIntervalMs: 100 },
    });
    const d = deps(surface);
    const notes = Array.from({ length: 4 }, (_, i) => sayPrivately(d, target, `U${String(i)}`, `#${String(i + 1)}`));
    const post = say(d, target, 'an answer');
    await vi.advanceTimersByTimeAsync(1);
    // The public post is not held up by the notes, nor the notes by it.
    expect(surface.texts()).toEqual(['an answer']);
    expect(surface.privates).toHaveLength(1);
    // Slack answered a note with 429, retry after 2 s: every note in the channel waits.
    d.channels.holdOff(target.channelId, 'private', 2_000);
    await vi.runAllTimersAsync();
    await Promise.all([...notes, post]);
    expect(surface.privates.map((note) => note.at)).toEqual([0, 2_001, 2_101, 2_201]);
  });

  it('tells nothing privately where the surface has no private messages', async () => {
    const surface = new RecordingSurface();
    expect(await sayPrivately(deps(surface), target, 'U1', 'hi')).toBe(false);
  });

  it('says what holds when the note goes out, not when it was planned', async () => {
    const surface = new RecordingSurface({ private: true });
    let place = 5;
    tellPrivatelyUnlessShown(deps(surface), target, 'U1', () => `#${String(place)}`, never);
    place = 2;
    await vi.advanceTimersByTimeAsync(PRIVATE_NOTE_AFTER_MS);
    expect(surface.privates.map((note) => note.text)).toEqual(['#2']);
  });

  it('tells nothing privately without a user to tell', async () => {
    const surface = new RecordingSurface({ private: true });
    tellPrivatelyUnlessShown(deps(surface), target, undefined, () => 'hi', never);
    await vi.advanceTimersByTimeAsync(PRIVATE_NOTE_AFTER_MS * 2);
    expect(surface.privates).toEqual([]);
  });
});

describe('posting when the channel allows', () => {
  it('keeps the calls a surface keys elsewhere (interaction webhooks) out of the channel’s turns', async () => {
    const channels = new ChannelBudget();
    const channel = new RecordingSurface({ limits: { minPostIntervalMs: 1_000 } });
    const interaction = new RecordingSurface({ limits: { minPostIntervalMs: 1_000 }, paceKey: 'interaction I1' });
    // Three replies in the channel: the channel's post turns are taken for the next two seconds.
    const replies = [1, 2, 3].map((i) => say({ ...deps(channel), channels }, target, `reply ${String(i)}`));
    const answers = [1, 2].map((i) => say({ ...deps(interaction), channels }, target, `answer ${String(i)}`));
    await vi.advanceTimersByTimeAsync(0);
    expect(interaction.messages.map((message) => message.postedAt)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1_000);
    // Its own answers still keep its pace among themselves.
    expect(interaction.messages.map((message) => message.postedAt)).toEqual([0, 1_000]);
    const all = Promise.all([...replies, ...answers]);
    await vi.runAllTimersAsync();
    await all;
    expect(channel.messages.map((message) => message.postedAt)).toEqual([0, 1_000, 2_000]);
  });
});
