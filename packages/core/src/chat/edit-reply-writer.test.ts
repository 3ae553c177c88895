import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEditReplyWriter } from './edit-reply-writer.js';
import { RateLimitedError } from './errors.js';
import type { ReplyWriter } from './surface.js';
import { fencesBalanced, longMarkdown, reassemble } from './testing/markdown.js';
import { RecordingSurface } from './testing/recording-surface.js';
import { evenly, timedDeltas } from './testing/scripted.js';

const target = { channelId: 'C1', threadId: 'T1' };

/** Feeds the deltas into the writer and ends it like converse does. */
async function feed(
  writer: ReplyWriter,
  deltas: AsyncIterable<string>,
  onError: (error: unknown) => string = () => '⚠️ failed',
): Promise<void> {
  try {
    for await (const delta of deltas) writer.append(delta);
  } catch (error) {
    await writer.fail(onError(error));
    return;
  }
  await writer.finish();
}

/** The same, running the fake clock until everything is delivered. */
async function stream(...args: Parameters<typeof feed>): Promise<void> {
  const done = feed(...args);
  await vi.runAllTimersAsync();
  await done;
}

async function settle(done: Promise<void>): Promise<void> {
  await vi.runAllTimersAsync();
  await done;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('edit-in-place reply writer', () => {
  it('posts as soon as the first text arrives, with the progress marker shown until then', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = createEditReplyWriter(surface, target);
    const deltas = timedDeltas([
      [9_000, 'Hel'],
      [50, 'lo'],
    ]);
    const done = feed(writer, deltas);
    await vi.advanceTimersByTimeAsync(8_999);
    expect(surface.messages).toHaveLength(0);
    // Renewed while the model thinks (typing indicators expire).
    expect(surface.progressTimes).toEqual([0, 8_000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(surface.messages).toHaveLength(1);
    expect(surface.messages[0]?.postedAt).toBe(9_000);
    expect(surface.messages[0]?.text).toBe('Hel');
    await settle(done);
    expect(surface.texts()).toEqual(['Hello']);
    expect(surface.messages[0]?.ref).toMatchObject(target);
    expect(surface.progressTimes).toEqual([0, 8_000]);
  });

  it('coalesces deltas: edits bounded by elapsed time over the edit interval, the last one complete', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { minEditIntervalMs: 1_000 } });
    const text = 'word '.repeat(300);
    // 300 deltas, 20 ms apart: 6 s of streaming.
    await stream(createEditReplyWriter(surface, target), timedDeltas(evenly(text, 5, 20)));
    const [message] = surface.messages;
    expect(surface.messages).toHaveLength(1);
    expect(message?.text).toBe(text);
    const elapsed = 300 * 20;
    expect(message?.editTimes.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000) + 1);
    expect(message?.editTimes.length).toBeGreaterThanOrEqual(Math.floor(elapsed / 1_000) - 1);
    const times = [message?.postedAt ?? 0, ...(message?.editTimes ?? [])];
    for (let i = 1; i < times.length; i += 1) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(1_000);
  });

  it('without a progress marker, posts a placeholder at once and turns it into the reply', async () => {
    const surface = new RecordingSurface();
    const writer = createEditReplyWriter(surface, target);
    const done = feed(writer, timedDeltas([[3_000, 'Answer.']]));
    await vi.advanceTimersByTimeAsync(0);
    expect(surface.texts()).toEqual(['_Thinking…_']);
    await settle(done);
    expect(surface.texts()).toEqual(['Answer.']);
    expect(surface.messages[0]?.editTimes).toEqual([3_000]);
  });

  it('replaces the placeholder with the first words at once, not an edit interval later', async () => {
    const surface = new RecordingSurface({ limits: { minEditIntervalMs: 1_000 } });
    const writer = createEditReplyWriter(surface, target);
    await settle(feed(writer, timedDeltas([[200, 'First'], [250, ' words.']])));
    expect(surface.texts()).toEqual(['First words.']);
    expect(surface.messages[0]?.editTimes[0]).toBe(200);
    expect(surface.messages[0]?.editTimes[1]).toBeGreaterThanOrEqual(1_200);
  });

  it('splits a 12,000-character reply with code blocks into clean messages within the limit', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { maxMessageChars: 2_000 } });
    const text = longMarkdown();
    await stream(createEditReplyWriter(surface, target), timedDeltas(evenly(text, 37, 15)));
    const texts = surface.texts();
    expect(texts.length).toBeGreaterThanOrEqual(Math.ceil(text.length / 2_000));
    for (const message of texts) {
      expect(message.length).toBeLessThanOrEqual(2_000);
      expect(fencesBalanced(message)).toBe(true);
    }
    expect(reassemble(texts)).toBe(text);
    for (const message of surface.messages) expect(message.ref.threadId).toBe('T1');
  });

  it('delivers the exact final text through rate limits on edits', async () => {
    const surface = new RecordingSurface({ progress: true });
    surface.failures.edit.push(new RateLimitedError(1_500), new RateLimitedError(2_500), new RateLimitedError(700));
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    await stream(createEditReplyWriter(surface, target), timedDeltas(evenly(text, 9, 30)));
    expect(surface.texts()).toEqual([text]);
    expect(surface.failures.edit).toHaveLength(0);
  });

  it('waits out a rate limit on the final edit, then sends the latest text', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = createEditReplyWriter(surface, target);
    const done = feed(writer, timedDeltas([[0, 'one'], [1_200, ' two']]));
    await vi.advanceTimersByTimeAsync(0);
    surface.failures.edit.push(new RateLimitedError(5_000));
    await settle(done);
    expect(surface.texts()).toEqual(['one two']);
    expect(surface.messages[0]?.editTimes).toEqual([6_200]);
  });

  it('retries transient failures a bounded number of times', async () => {
    const surface = new RecordingSurface({ progress: true });
    surface.failures.post.push(new Error('socket hang up'));
    surface.failures.edit.push(new Error('timeout'), new Error('timeout'));
    await stream(createEditReplyWriter(surface, target), timedDeltas(evenly('abcdefghij'.repeat(30), 10, 400)));
    expect(surface.texts()).toEqual(['abcdefghij'.repeat(30)]);

    const broken = new RecordingSurface({ progress: true });
    for (let i = 0; i < 10; i += 1) broken.failures.post.push(new Error('channel_not_found'));
    const writer = createEditReplyWriter(broken, target);
    writer.append('hello');
    const finished = writer.finish().then(
      () => 'resolved',
      (error: unknown) => (error instanceof Error ? error.message : 'other'),
    );
    await vi.runAllTimersAsync();
    expect(await finished).toBe('channel_not_found');
    expect(broken.failures.post).toHaveLength(10 - 4);
  });

  it('turns the progress into the error message when the model fails before any text', async () => {
    const placeholder = new RecordingSurface();
    await stream(createEditReplyWriter(placeholder, target), timedDeltas([], new Error('boom')), () => '⚠️ I could not answer.');
    expect(placeholder.texts()).toEqual(['⚠️ I could not answer.']);

    const typing = new RecordingSurface({ progress: true });
    await stream(createEditReplyWriter(typing, target), timedDeltas([], new Error('boom')), () => '⚠️ I could not answer.');
    expect(typing.texts()).toEqual(['⚠️ I could not answer.']);
  });

  it('keeps the delivered text and adds the error line, closing an open code block first', async () => {
    const surface = new RecordingSurface({ progress: true });
    const deltas = timedDeltas(
      [
        [0, 'Here:\n\n```py\n'],
        [100, 'print(1)\n'],
      ],
      new Error('overloaded'),
    );
    await stream(createEditReplyWriter(surface, target), deltas, () => '⚠️ _The reply stopped early._');
    expect(surface.texts()).toEqual(['Here:\n\n```py\nprint(1)\n```\n\n⚠️ _The reply stopped early._']);
  });
});
