import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../time/clock.js';
import { ChannelBudget } from './channel-budget.js';
import { copy } from '../copy/copy.js';
import { RateLimitedError } from '../surface/rate-limited-error.js';
import { EditSink, PLACEHOLDER_AFTER_MS } from './reply-edit-sink.js';
import { ReplyPump, type ReplyWriter } from './reply-pump.js';
import type { ReplySink } from './reply-sink.js';
import { StreamSink } from './reply-stream-sink.js';
import type { ChatSurface, ReplyStream } from '../surface/surface.js';
import { fencesBalanced, longMarkdown, reassemble } from '../../testing/markdown.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { evenly, timedDeltas } from '../../testing/scripted.js';

const target = { channelId: 'C1', threadId: 'T1' };
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

interface PumpOptions {
  channels?: ChannelBudget;
  signal?: AbortSignal;
  logger?: typeof silent;
}

const STOPPED = '_Stopped for a restart._';

function pump(sink: ReplySink, surface: ChatSurface, options: PumpOptions = {}): ReplyPump {
  return new ReplyPump({
    sink,
    target,
    limits: surface.limits,
    channels: options.channels ?? new ChannelBudget(),
    clock: systemClock,
    logger: options.logger ?? silent,
    signal: options.signal,
    stopped: (stop) => (stop === 'cancelled' ? copy.cancelled : STOPPED),
  });
}

/** A reply edited in place on `surface`. */
function edits(surface: ChatSurface, options: PumpOptions = {}): ReplyPump {
  return pump(new EditSink(surface, target, systemClock), surface, options);
}

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

describe('reply pump, editing in place', () => {
  it('posts as soon as the first text arrives, with the progress marker shown until then', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = edits(surface);
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

  it('never holds the first words back for a progress marker still on its way', async () => {
    // Typing stuck behind a rate limit for 5 s: the reply's words come after 30 ms.
    const surface = new RecordingSurface({ progress: true, progressMs: 5_000 });
    const writer = edits(surface);
    const done = feed(writer, timedDeltas([[30, 'Hello']]));
    await vi.advanceTimersByTimeAsync(30);
    expect(surface.messages.map((message) => [message.text, message.postedAt])).toEqual([['Hello', 30]]);
    await settle(done);
    expect(surface.texts()).toEqual(['Hello']);
  });

  it('coalesces deltas: edits bounded by elapsed time over the edit interval, the last one complete', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { minEditIntervalMs: 1_000 } });
    const text = 'word '.repeat(300);
    // 300 deltas, 20 ms apart: 6 s of streaming.
    await stream(edits(surface), timedDeltas(evenly(text, 5, 20)));
    const [message] = surface.messages;
    expect(surface.messages).toHaveLength(1);
    expect(message?.text).toBe(text);
    const elapsed = 300 * 20;
    expect(message?.editTimes.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000) + 1);
    expect(message?.editTimes.length).toBeGreaterThanOrEqual(Math.floor(elapsed / 1_000) - 1);
    const times = [message?.postedAt ?? 0, ...(message?.editTimes ?? [])];
    for (let i = 1; i < times.length; i += 1)
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(1_000);
  });

  it('without a progress marker, posts a placeholder once the words are slow and turns it into the reply', async () => {
    const surface = new RecordingSurface();
    const writer = edits(surface);
    const done = feed(writer, timedDeltas([[3_000, 'Answer.']]));
    await vi.advanceTimersByTimeAsync(PLACEHOLDER_AFTER_MS - 1);
    expect(surface.texts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(surface.texts()).toEqual(['_Thinking…_']);
    await settle(done);
    expect(surface.texts()).toEqual(['Answer.']);
    expect(surface.messages[0]?.editTimes).toEqual([3_000]);
  });

  it('without a progress marker, posts the first words that come soon, with no placeholder', async () => {
    const surface = new RecordingSurface({ limits: { minEditIntervalMs: 1_000 } });
    const writer = edits(surface);
    writer.started();
    const done = feed(
      writer,
      timedDeltas([
        [200, 'First'],
        [250, ' words.'],
      ]),
    );
    await vi.advanceTimersByTimeAsync(200);
    expect(surface.texts()).toEqual(['First']);
    expect(surface.messages[0]?.postedAt).toBe(200);
    await settle(done);
    expect(surface.texts()).toEqual(['First words.']);
    // The first edit coalesces: an edit interval after the post.
    expect(surface.messages[0]?.editTimes).toEqual([1_200]);
  });

  it('is posted once its message is on the platform, not when its later edits are', async () => {
    const surface = new RecordingSurface({ limits: { minEditIntervalMs: 1_000 } });
    const writer = edits(surface);
    writer.started();
    writer.activity('Drawing “a fox”…');
    let posted = false;
    void writer.posted().then(() => {
      posted = true;
    });
    expect(posted).toBe(false);
    // The activity is the placeholder's text, posted at once.
    await vi.advanceTimersByTimeAsync(0);
    expect(surface.texts()).toEqual(['_Drawing “a fox”…_']);
    expect(posted).toBe(true);
    writer.append('Sure.');
    // An edit is due, not a post: nothing to wait for.
    await writer.posted();
    writer.activity(undefined);
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['Sure.']);
    await writer.posted();
  });

  it('has nothing to wait for on a platform stream before its first words', async () => {
    const surface = new RecordingSurface({ limits: { minEditIntervalMs: 1_000 } });
    const stream: ReplyStream = {
      maxChunkChars: 1_000,
      showStatus: async () => undefined,
      start: async () => undefined,
      append: async () => undefined,
      stop: async () => undefined,
    };
    const writer = pump(
      new StreamSink(stream, {
        clock: systemClock,
        gapMs: 1_000,
        fallback: () => new EditSink(surface, target, systemClock),
      }),
      surface,
    );
    writer.started();
    writer.activity('Drawing “a fox”…');
    await writer.posted();
    await settle(writer.fail('⚠️ failed'));
  });

  it('replaces the placeholder with the first words at once, not an edit interval later', async () => {
    const surface = new RecordingSurface({ limits: { minEditIntervalMs: 1_000 } });
    const writer = edits(surface);
    await settle(
      feed(
        writer,
        timedDeltas([
          [PLACEHOLDER_AFTER_MS + 200, 'First'],
          [250, ' words.'],
        ]),
      ),
    );
    expect(surface.texts()).toEqual(['First words.']);
    expect(surface.messages[0]?.postedAt).toBe(PLACEHOLDER_AFTER_MS);
    expect(surface.messages[0]?.editTimes[0]).toBe(PLACEHOLDER_AFTER_MS + 200);
    expect(surface.messages[0]?.editTimes[1]).toBeGreaterThanOrEqual(PLACEHOLDER_AFTER_MS + 1_200);
  });

  it('splits a 12,000-character reply with code blocks into clean messages within the limit', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { maxMessageChars: 2_000 } });
    const text = longMarkdown();
    await stream(edits(surface), timedDeltas(evenly(text, 37, 15)));
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
    await stream(edits(surface), timedDeltas(evenly(text, 9, 30)));
    expect(surface.texts()).toEqual([text]);
    expect(surface.failures.edit).toHaveLength(0);
  });

  it('waits out a rate limit on the final edit, then sends the latest text', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = edits(surface);
    const done = feed(
      writer,
      timedDeltas([
        [0, 'one'],
        [1_200, ' two'],
      ]),
    );
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
    await stream(edits(surface), timedDeltas(evenly('abcdefghij'.repeat(30), 10, 400)));
    expect(surface.texts()).toEqual(['abcdefghij'.repeat(30)]);

    const broken = new RecordingSurface({ progress: true });
    for (let i = 0; i < 10; i += 1) broken.failures.post.push(new Error('channel_not_found'));
    const writer = edits(broken);
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
    await stream(edits(placeholder), timedDeltas([], new Error('boom')), () => '⚠️ I could not answer.');
    expect(placeholder.texts()).toEqual(['⚠️ I could not answer.']);

    const typing = new RecordingSurface({ progress: true });
    await stream(edits(typing), timedDeltas([], new Error('boom')), () => '⚠️ I could not answer.');
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
    await stream(edits(surface), deltas, () => '⚠️ _The reply stopped early._');
    expect(surface.texts()).toEqual(['Here:\n\n```py\nprint(1)\n```\n\n⚠️ _The reply stopped early._']);
  });
});

describe('reply pump: the channel, the line and stops', () => {
  it('shares one edit budget between the replies of a channel', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { minEditIntervalMs: 1_000 } });
    const channels = new ChannelBudget();
    const text = 'word '.repeat(200);
    // Two replies streaming side by side for 4 s, each in its own thread of C1.
    await Promise.all([
      stream(edits(surface, { channels }), timedDeltas(evenly(text, 5, 20))),
      stream(edits(surface, { channels }), timedDeltas(evenly(text, 5, 20))),
    ]);
    expect(surface.texts()).toEqual([text, text]);
    const edited = surface.messages.flatMap((m) => m.editTimes).sort((a, b) => a - b);
    for (let i = 1; i < edited.length; i += 1)
      expect((edited[i] ?? 0) - (edited[i - 1] ?? 0)).toBeGreaterThanOrEqual(1_000);
  });

  it('completes a reply whose stream ended before edits of replies still streaming', async () => {
    const surface = new RecordingSurface({ limits: { minPostIntervalMs: 0, minEditIntervalMs: 1_000 } });
    const channels = new ChannelBudget();
    const streaming = edits(surface, { channels });
    const ending = edits(surface, { channels });
    for (const writer of [streaming, ending]) writer.started();
    streaming.append('Still');
    ending.append('Almost');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual(['Still', 'Almost']);
    // Another reply's text was just edited in the channel: the next edit is a second away, and
    // the streaming reply asks for it first.
    await channels.turn(target.channelId, 'edit', 1_000);
    streaming.append(' going');
    await vi.advanceTimersByTimeAsync(100);
    ending.append(' done.');
    const ended = ending.finish();
    await vi.advanceTimersByTimeAsync(900);
    expect(surface.texts()).toEqual(['Still', 'Almost done.']);
    await ended;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual(['Still going', 'Almost done.']);
    await settle(streaming.finish());
  });

  it('in a busy channel, the first words show at once: they are posted, not an edit waiting for its turn', async () => {
    const surface = new RecordingSurface({ limits: { minPostIntervalMs: 1_000, minEditIntervalMs: 1_000 } });
    const channels = new ChannelBudget();
    // Another reply's text was just edited in the channel: the next edit there may go in a second.
    await channels.turn(target.channelId, 'edit', 1_000);
    const writer = edits(surface, { channels });
    writer.started();
    await vi.advanceTimersByTimeAsync(30);
    writer.append('First words');
    await vi.advanceTimersByTimeAsync(0);
    expect(surface.texts()).toEqual(['First words']);
    expect(surface.messages[0]?.postedAt).toBe(30);
    writer.append('.');
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['First words.']);
    expect(surface.messages[0]?.editTimes).toEqual([1_030]);
  });

  it('where the channel takes a burst, a reply posted just after another shows its first words at once', async () => {
    const limits = { minPostIntervalMs: 1_000, minEditIntervalMs: 1_000, channelBurst: 5 };
    const surface = new RecordingSurface({ limits });
    const channels = new ChannelBudget();
    // Another reply was just posted in the channel: without the burst, the next post would wait a second.
    (await channels.turn(target.channelId, 'post', 1_000, { burst: 5 }))();
    const writer = edits(surface, { channels });
    writer.started();
    await vi.advanceTimersByTimeAsync(30);
    writer.append('First words');
    await vi.advanceTimersByTimeAsync(0);
    expect(surface.texts()).toEqual(['First words']);
    expect(surface.messages[0]?.postedAt).toBe(30);
    writer.append(' and');
    await vi.advanceTimersByTimeAsync(1_000);
    writer.append(' more.');
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['First words and more.']);
    // Edits take no burst: one a second in the channel.
    expect(surface.messages[0]?.editTimes).toEqual([1_030, 2_030]);
  });

  it('shows its place in line, then that it works, then the reply in the same message', async () => {
    const surface = new RecordingSurface({ limits: { minEditIntervalMs: 1_000 } });
    const writer = edits(surface);
    writer.queued(3);
    await vi.advanceTimersByTimeAsync(0);
    expect(surface.texts()).toEqual([copy.chatQueued(3)]);
    writer.queued(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual(['⏳ You\u2019re next in line.'.replace('\u2019', "'")]);
    writer.started();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual([copy.thinking]);
    writer.append('Here it is.');
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['Here it is.']);
    expect(surface.messages).toHaveLength(1);
  });

  it('with a progress marker, shows the place in line as a message and types once it works', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = edits(surface);
    writer.queued(2);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(surface.texts()).toEqual([copy.chatQueued(2)]);
    // Typing at most as the writer opened, not renewed while in line.
    const typedInLine = surface.progressTimes.length;
    expect(typedInLine).toBeLessThanOrEqual(1);
    writer.started();
    await vi.advanceTimersByTimeAsync(0);
    expect(surface.progressTimes).toHaveLength(typedInLine + 1);
    writer.append('Done.');
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['Done.']);
  });

  it('in a busy channel: running replies first, then places in line, refusals last; text edits before moves in line', async () => {
    const surface = new RecordingSurface({ limits: { minPostIntervalMs: 1_000, minEditIntervalMs: 1_000 } });
    const channels = new ChannelBudget();
    // Someone else just posted in the channel: the next post may go in a second.
    await channels.turn(target.channelId, 'post', 1_000);
    const refused = edits(surface, { channels });
    const refusal = refused.fail('⏳ Busy.');
    const waiting = edits(surface, { channels });
    waiting.queued(2);
    const running = edits(surface, { channels });
    running.started();
    running.append('Working on it');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(surface.texts()).toEqual(['Working on it', copy.chatQueued(2), '⏳ Busy.']);
    await refusal;

    // Both messages are up: a move in line and new text want an edit at once; the text goes first.
    await channels.turn(target.channelId, 'edit', 1_000);
    waiting.queued(1);
    running.append(', done.');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual(['Working on it, done.', copy.chatQueued(2), '⏳ Busy.']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual(['Working on it, done.', copy.chatQueued(1), '⏳ Busy.']);
    waiting.started();
    waiting.append('Hi.');
    await settle(Promise.all([waiting.finish(), running.finish()]).then(() => undefined));
  });

  it('stops at once on abort: the text shown stays, the backlog is dropped, one call leaves the note', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { maxMessageChars: 100 } });
    const controller = new AbortController();
    const writer = edits(surface, { signal: controller.signal });
    writer.started();
    writer.append('word '.repeat(10_000));
    await vi.advanceTimersByTimeAsync(2_500);
    const shownBefore = surface.texts();
    const callsBefore = surface.messages.length + surface.editCount;
    controller.abort(new Error('shutting down'));
    await settle(writer.fail(STOPPED));
    expect(surface.messages.length + surface.editCount).toBe(callsBefore + 1);
    const after = surface.texts();
    expect(after.slice(0, shownBefore.length - 1)).toEqual(shownBefore.slice(0, -1));
    expect(after.at(-1)?.endsWith(STOPPED)).toBe(true);
    // 50,000 characters at 100 a message would have been 500 messages.
    expect(surface.messages.length).toBeLessThan(10);
  });

  it('says what stopped it when an abort cuts off text the caller had finished', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { maxMessageChars: 100 } });
    const controller = new AbortController();
    const writer = edits(surface, { signal: controller.signal });
    writer.started();
    writer.append('word '.repeat(200));
    const finished = writer.finish();
    await vi.advanceTimersByTimeAsync(1_500);
    controller.abort(new Error('shutting down'));
    await settle(finished);
    expect(surface.texts().at(-1)?.endsWith(STOPPED)).toBe(true);
    expect(surface.messages.length).toBeLessThan(5);
  });

  it('posts the note alone when it is stopped before any text', async () => {
    const surface = new RecordingSurface({ progress: true });
    const controller = new AbortController();
    const writer = edits(surface, { signal: controller.signal });
    controller.abort(new Error('deleted'));
    await settle(writer.fail(copy.cancelled));
    expect(surface.texts()).toEqual([copy.cancelled]);
  });

  it('cuts only the current message’s window of a huge text, whatever its length', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { maxMessageChars: 2_000 } });
    const sink = new EditSink(surface, target, systemClock);
    const huge = `${'A paragraph of words. '.repeat(40)}\n\n`.repeat(12_000);
    expect(huge.length).toBeGreaterThan(10_000_000);
    const started = performance.now();
    const call = sink.next({ text: huge, final: false, status: 'working' });
    await call?.run({ text: huge, final: false, status: 'working' });
    expect(performance.now() - started).toBeLessThan(200);
    expect(surface.texts()[0]?.length).toBeLessThanOrEqual(2_000);
    expect(huge.startsWith(surface.texts()[0] ?? 'x')).toBe(true);
  });
});

describe('reply pump: what the bot does meanwhile, edited in place', () => {
  const drawing = 'Drawing “a lighthouse at dawn”…';
  const drawingLine = '_Drawing “a lighthouse at dawn”…_';

  it('shows the activity as the placeholder at once, instead of "Thinking…", typing or not', async () => {
    for (const progress of [false, true]) {
      const surface = new RecordingSurface({ progress });
      const writer = edits(surface);
      writer.started();
      await vi.advanceTimersByTimeAsync(10);
      const setAt = Date.now();
      writer.activity(drawing);
      await vi.advanceTimersByTimeAsync(0);
      expect(surface.texts()).toEqual([drawingLine]);
      expect(surface.messages[0]?.postedAt).toBe(setAt);
      writer.activity(undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(surface.texts()).toEqual([copy.thinking]);
      writer.append('Here it is.');
      await settle(writer.finish());
      expect(surface.texts()).toEqual(['Here it is.']);
      expect(surface.messages).toHaveLength(1);
    }
  });

  it('leaves an activity before the text to a marker that says it (a DM status): no message for it', async () => {
    const surface = new RecordingSurface({ progress: true, progressSaysActivity: true });
    const writer = edits(surface);
    writer.started();
    await vi.advanceTimersByTimeAsync(10);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(0);
    // Nothing waits to be posted, so a tool's result may follow at once.
    await writer.posted();
    writer.activity(undefined);
    await vi.advanceTimersByTimeAsync(10);
    expect(surface.messages).toEqual([]);
    const shown = surface.progressActivities.filter((activity, i, all) => i === 0 || activity !== all[i - 1]);
    expect(shown).toEqual([undefined, drawing, undefined]);
    writer.append('Here it is.');
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['Here it is.']);
    // Once the reply shows, the activity is its italic line again.
    const later = new RecordingSurface({ progress: true, progressSaysActivity: true });
    const going = edits(later);
    going.started();
    going.append('Let me draw it.');
    await vi.advanceTimersByTimeAsync(0);
    going.activity(drawing);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(later.texts()).toEqual([`Let me draw it.\n\n${drawingLine}`]);
    await settle(going.finish());
  });

  it('shows the activity after the text as an italic line, gone once cleared and at the end', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { minEditIntervalMs: 1_000 } });
    const writer = edits(surface);
    writer.started();
    writer.append('Let me draw it.');
    await vi.advanceTimersByTimeAsync(0);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual([`Let me draw it.\n\n${drawingLine}`]);
    writer.activity(undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual(['Let me draw it.']);
    writer.activity('Editing the image…');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(surface.texts()).toEqual(['Let me draw it.\n\n_Editing the image…_']);
    writer.append(' Done.');
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['Let me draw it. Done.']);
    expect(surface.messages).toHaveLength(1);
  });

  it('shows the activity line outside an open code block', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = edits(surface);
    writer.started();
    writer.append('```py\nprint(1)\n');
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(0);
    expect(surface.texts()).toEqual([`\`\`\`py\nprint(1)\n\`\`\`\n\n${drawingLine}`]);
    writer.activity(undefined);
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['```py\nprint(1)\n']);
  });

  it('leaves the activity out where it would not fit the message, and never splits for it', async () => {
    const surface = new RecordingSurface({ progress: true, limits: { maxMessageChars: 40 } });
    const writer = edits(surface);
    writer.started();
    const text = 'Thirty characters of the text.';
    writer.append(text);
    await vi.advanceTimersByTimeAsync(0);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(surface.texts()).toEqual([text]);
    expect(surface.editCount).toBe(0);
    writer.activity(undefined);
    await settle(writer.finish());
    expect(surface.texts()).toEqual([text]);
    expect(surface.editCount).toBe(0);
  });

  it('makes no edit when the activity did not change', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = edits(surface);
    writer.started();
    writer.append('Let me draw it.');
    await vi.advanceTimersByTimeAsync(0);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(5_000);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(surface.editCount).toBe(1);
    // Set and cleared before its edit went out: the message already shows what it should.
    writer.activity('Editing the image…');
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(surface.editCount).toBe(1);
    expect(surface.texts()).toEqual([`Let me draw it.\n\n${drawingLine}`]);
    writer.activity(undefined);
    await settle(writer.finish());
    expect(surface.editCount).toBe(2);
  });

  it('fails without the activity: the error line follows the text, or replaces the placeholder', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = edits(surface);
    writer.started();
    writer.append('Let me draw it.');
    await vi.advanceTimersByTimeAsync(0);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle(writer.fail('⚠️ I could not draw it.'));
    expect(surface.texts()).toEqual(['Let me draw it.\n\n⚠️ I could not draw it.']);

    const placeholder = new RecordingSurface();
    const early = edits(placeholder);
    early.started();
    early.activity(drawing);
    await vi.advanceTimersByTimeAsync(0);
    expect(placeholder.texts()).toEqual([drawingLine]);
    await settle(early.fail('⚠️ I could not draw it.'));
    expect(placeholder.texts()).toEqual(['⚠️ I could not draw it.']);
  });

  it('leaves the stop note after the text, not after the activity', async () => {
    const surface = new RecordingSurface({ progress: true });
    const controller = new AbortController();
    const writer = edits(surface, { signal: controller.signal });
    writer.started();
    writer.append('Let me draw it.');
    await vi.advanceTimersByTimeAsync(0);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort(new Error('deleted'));
    await settle(writer.fail(copy.cancelled));
    expect(surface.texts()).toEqual([`Let me draw it.\n\n${copy.cancelled}`]);
  });

  it('never shows the activity in the text the writer ends with', async () => {
    const surface = new RecordingSurface({ progress: true });
    const writer = edits(surface);
    writer.started();
    writer.append('Here.');
    writer.activity(drawing);
    await settle(writer.finish());
    expect(surface.texts()).toEqual(['Here.']);
  });
});

/** Slack-like native streaming, recording each call with the fake time; with `tasks`, it shows tasks too. */
function recordingStream(
  maxChunkChars = 12_000,
  { tasks = false } = {},
): ReplyStream & { calls: Array<[string, number, string?]> } {
  const calls: Array<[string, number, string?]> = [];
  return {
    calls,
    maxChunkChars,
    showStatus: async (status) => void calls.push(['status', Date.now(), status]),
    start: async (markdown) => void calls.push(['start', Date.now(), markdown]),
    append: async (markdown) => void calls.push(['append', Date.now(), markdown]),
    stop: async (markdown) => void calls.push(['stop', Date.now(), markdown]),
    ...(tasks
      ? { task: async ({ id, title, status }) => void calls.push(['task', Date.now(), `${id} ${status}: ${title}`]) }
      : {}),
  };
}

function streamed(api: ReplyStream, surface: RecordingSurface, logger = silent, options: PumpOptions = {}): ReplyPump {
  const sink = new StreamSink(api, {
    clock: systemClock,
    gapMs: surface.limits.minEditIntervalMs,
    fallback: () => new EditSink(surface, target, systemClock),
  });
  return pump(sink, surface, { ...options, logger });
}

const sent = (calls: Array<[string, number, string?]>): string =>
  calls
    .filter(([kind]) => kind !== 'status' && kind !== 'task')
    .map(([, , text]) => text ?? '')
    .join('');

describe('reply pump, streaming natively', () => {
  it('shows the status, starts with the first text and stops with the rest, one call a second at most', async () => {
    const api = recordingStream();
    const writer = streamed(api, new RecordingSurface());
    writer.append('Hello');
    await vi.advanceTimersByTimeAsync(5);
    writer.append(', world');
    writer.append('!');
    await settle(writer.finish());
    expect(api.calls).toEqual([
      ['status', 0, copy.thinkingStatus],
      ['start', 0, 'Hello'],
      ['stop', 1000, ', world!'],
    ]);
  });

  it('tells the stream its reply is complete when all of it is out, and not when a stop cut it off', async () => {
    const stops: Array<boolean | undefined> = [];
    const recording = (): ReplyStream => {
      const api = recordingStream();
      return { ...api, stop: async (_markdown, options) => void stops.push(options?.complete) };
    };
    await settle(feed(streamed(recording(), new RecordingSurface()), timedDeltas(evenly('Hello, world', 5, 100))));
    const controller = new AbortController();
    const cut = streamed(recording(), new RecordingSurface(), silent, { signal: controller.signal });
    cut.append('Hello');
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('deleted'));
    await settle(cut.fail(copy.cancelled));
    expect(stops).toEqual([true, undefined]);
  });

  it('starts the stream only once its status has landed, which would otherwise stay up over it', async () => {
    const api = recordingStream();
    const slowStatus: ReplyStream = {
      ...api,
      showStatus: async (status) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await api.showStatus(status);
      },
    };
    const writer = streamed(slowStatus, new RecordingSurface());
    writer.append('Hello');
    await settle(writer.finish());
    expect(api.calls).toEqual([
      ['status', 300, copy.thinkingStatus],
      ['start', 300, 'Hello'],
      ['stop', 1300, undefined],
    ]);
  });

  it('shows the place in line as the status while the reply waits, and never "thinking" before it', async () => {
    const api = recordingStream();
    const writer = streamed(api, new RecordingSurface());
    writer.queued(4);
    await vi.advanceTimersByTimeAsync(0);
    writer.started();
    writer.append('Hi');
    await settle(writer.finish());
    expect(api.calls.filter(([kind]) => kind === 'status').map(([, , status]) => status)).toEqual([
      copy.queuedStatus(4),
      copy.thinkingStatus,
    ]);
  });

  it('shows a line moving up at an edit’s pace, the latest place each time, and its work starting at once', async () => {
    const api = recordingStream();
    const writer = streamed(api, new RecordingSurface());
    writer.queued(5);
    await vi.advanceTimersByTimeAsync(100);
    writer.queued(4);
    await vi.advanceTimersByTimeAsync(100);
    writer.queued(3);
    await vi.advanceTimersByTimeAsync(400);
    writer.queued(2);
    await vi.advanceTimersByTimeAsync(900);
    writer.queued(1);
    await vi.advanceTimersByTimeAsync(100);
    writer.started();
    writer.append('Hi');
    await settle(writer.finish());
    expect(api.calls.filter(([kind]) => kind === 'status')).toEqual([
      ['status', 0, copy.queuedStatus(5)],
      ['status', 100, copy.queuedStatus(4)],
      ['status', 1100, copy.queuedStatus(2)],
      ['status', 1600, copy.thinkingStatus],
    ]);
  });

  it('shows the places of a channel’s waiting replies one an edit interval, apart from the text of running ones', async () => {
    const channels = new ChannelBudget();
    const surface = new RecordingSurface();
    const running = recordingStream();
    const first = recordingStream();
    const second = recordingStream();
    const reply = streamed(running, surface, silent, { channels });
    reply.started();
    reply.append('Hello');
    const a = streamed(first, surface, silent, { channels });
    const b = streamed(second, surface, silent, { channels });
    a.queued(3);
    b.queued(4);
    await vi.advanceTimersByTimeAsync(100);
    a.queued(2);
    b.queued(3);
    await vi.advanceTimersByTimeAsync(100);
    a.queued(1);
    b.queued(2);
    reply.append(', world');
    await vi.advanceTimersByTimeAsync(2500);
    expect(running.calls).toEqual([
      ['status', 0, copy.thinkingStatus],
      ['start', 0, 'Hello'],
      ['append', 1000, ', world'],
    ]);
    expect(first.calls).toEqual([
      ['status', 0, copy.queuedStatus(3)],
      ['status', 100, copy.queuedStatus(2)],
      ['status', 2100, copy.queuedStatus(1)],
    ]);
    expect(second.calls).toEqual([
      ['status', 0, copy.queuedStatus(4)],
      ['status', 1100, copy.queuedStatus(2)],
    ]);
    await settle(reply.finish());
    for (const waiting of [a, b]) {
      waiting.started();
      await settle(waiting.fail('Gave up.'));
    }
  });

  it('splits text longer than one call may carry', async () => {
    const api = recordingStream(4);
    const writer = streamed(api, new RecordingSurface());
    writer.append('abcdefghij');
    await settle(writer.finish());
    expect(api.calls.map(([kind, , text]) => [kind, text])).toEqual([
      ['status', copy.thinkingStatus],
      ['start', 'abcd'],
      ['append', 'efgh'],
      ['stop', 'ij'],
    ]);
  });

  it('closes an open code block before the error line, or shows the line alone', async () => {
    const api = recordingStream();
    const writer = streamed(api, new RecordingSurface());
    writer.append('```ts\nconst a = 1;');
    await settle(writer.fail('It broke.'));
    expect(sent(api.calls)).toBe('```ts\nconst a = 1;\n```\n\nIt broke.');

    const alone = recordingStream();
    await settle(streamed(alone, new RecordingSurface()).fail('Nothing to say.'));
    expect(alone.calls.map(([kind, , text]) => [kind, text])).toEqual([
      ['status', copy.thinkingStatus],
      ['start', 'Nothing to say.'],
      ['stop', undefined],
    ]);
  });

  it('carries on with edits in place when the stream cannot start, with everything so far', async () => {
    const api = recordingStream();
    let starts = 0;
    api.start = async () => {
      starts += 1;
      throw Object.assign(new Error('An API error occurred: not_allowed'), { code: 'slack_webapi_platform_error' });
    };
    const warnings: string[] = [];
    const surface = new RecordingSurface();
    const writer = streamed(api, surface, { ...silent, warn: () => void warnings.push('warn') });
    writer.append('Hello');
    writer.append(', world');
    await vi.advanceTimersByTimeAsync(10);
    writer.append('!');
    await settle(writer.finish());
    expect(starts).toBe(1);
    expect(surface.texts()).toEqual(['Hello, world!']);
    expect(warnings).toHaveLength(1);
  });

  it('does not fall back on a rate limit it could not wait out: the reply fails', async () => {
    const api = recordingStream();
    api.start = async () => {
      throw new RateLimitedError(10 * 60_000);
    };
    const surface = new RecordingSurface();
    const writer = streamed(api, surface);
    writer.append('Hello');
    const finished = writer.finish().then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await vi.runAllTimersAsync();
    expect(await finished).toBeInstanceOf(RateLimitedError);
    expect(surface.messages).toEqual([]);
  });
});

describe('reply pump: what the bot does meanwhile, streamed natively', () => {
  const drawing = 'Drawing “a lighthouse at dawn”…';

  it('shows the activity as the status before the stream starts', async () => {
    const api = recordingStream(12_000, { tasks: true });
    const writer = streamed(api, new RecordingSurface());
    writer.started();
    await vi.advanceTimersByTimeAsync(0);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(20_000);
    writer.activity(undefined);
    await vi.advanceTimersByTimeAsync(0);
    writer.append('Here it is.');
    await settle(writer.finish());
    expect(api.calls).toEqual([
      ['status', 0, copy.thinkingStatus],
      ['status', 0, drawing],
      ['status', 20_000, copy.thinkingStatus],
      ['start', 20_000, 'Here it is.'],
      ['stop', 21_000, undefined],
    ]);
  });

  it('shows an activity after the start as a task, completed once cleared, in order with the text', async () => {
    const api = recordingStream(12_000, { tasks: true });
    const writer = streamed(api, new RecordingSurface());
    writer.started();
    writer.append('Let me draw it.');
    await vi.advanceTimersByTimeAsync(0);
    writer.append(' One moment.');
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(30_000);
    writer.activity(undefined);
    writer.append(' Here it is.');
    await vi.advanceTimersByTimeAsync(10_000);
    writer.activity('Editing the image…');
    await vi.advanceTimersByTimeAsync(10_000);
    writer.append(' Done.');
    await settle(writer.finish());
    expect(api.calls).toEqual([
      ['status', 0, copy.thinkingStatus],
      ['start', 0, 'Let me draw it.'],
      // The words before the tool first, then its task; its end before the words after it.
      ['append', 1_000, ' One moment.'],
      ['task', 2_000, `activity-1 in_progress: ${drawing}`],
      ['task', 30_000, `activity-1 complete: ${drawing}`],
      ['append', 31_000, ' Here it is.'],
      ['task', 40_000, 'activity-2 in_progress: Editing the image…'],
      ['task', 50_000, 'activity-2 complete: Editing the image…'],
      ['stop', 51_000, ' Done.'],
    ]);
    expect(sent(api.calls)).toBe('Let me draw it. One moment. Here it is. Done.');
  });

  it('completes the task when the reply fails, before the error line', async () => {
    const api = recordingStream(12_000, { tasks: true });
    const writer = streamed(api, new RecordingSurface());
    writer.started();
    writer.append('Let me draw it.');
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(5_000);
    await settle(writer.fail('⚠️ I could not draw it.'));
    expect(api.calls.slice(-3)).toEqual([
      ['task', 1_000, `activity-1 in_progress: ${drawing}`],
      ['task', 5_000, `activity-1 complete: ${drawing}`],
      ['stop', 6_000, '\n\n⚠️ I could not draw it.'],
    ]);
  });

  it('marks the task failed when a stop cuts it off, then leaves the note', async () => {
    const api = recordingStream(12_000, { tasks: true });
    const controller = new AbortController();
    const writer = streamed(api, new RecordingSurface(), silent, { signal: controller.signal });
    writer.started();
    writer.append('Let me draw it.');
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(5_000);
    controller.abort(new Error('deleted'));
    await settle(writer.fail(copy.cancelled));
    expect(api.calls.slice(-3)).toEqual([
      ['task', 1_000, `activity-1 in_progress: ${drawing}`],
      ['task', 5_000, `activity-1 error: ${drawing}`],
      ['stop', 5_000, `\n\n${copy.cancelled}`],
    ]);
  });

  it('shows nothing for an activity after the start when the stream has no tasks', async () => {
    const api = recordingStream();
    const writer = streamed(api, new RecordingSurface());
    writer.started();
    writer.append('Let me draw it.');
    await vi.advanceTimersByTimeAsync(0);
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(30_000);
    writer.activity(undefined);
    writer.append(' Here it is.');
    await settle(writer.finish());
    expect(api.calls).toEqual([
      ['status', 0, copy.thinkingStatus],
      ['start', 0, 'Let me draw it.'],
      ['stop', 30_000, ' Here it is.'],
    ]);
  });

  it('goes on with the text, without tasks, when the platform refuses one', async () => {
    const api = recordingStream(12_000, { tasks: true });
    let refusals = 0;
    api.task = async () => {
      refusals += 1;
      throw new Error('invalid_chunks');
    };
    const warnings: unknown[] = [];
    const writer = streamed(api, new RecordingSurface(), { ...silent, warn: (...args) => void warnings.push(args) });
    writer.started();
    writer.append('Let me draw it.');
    writer.activity(drawing);
    await vi.advanceTimersByTimeAsync(30_000);
    writer.activity(undefined);
    writer.activity('Editing the image…');
    writer.append(' Here it is.');
    await settle(writer.finish());
    expect(refusals).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(sent(api.calls)).toBe('Let me draw it. Here it is.');
  });
});
