import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancellationRegistry } from '../scheduling/cancellation-registry.js';
import { JobHandedOverError } from '../scheduling/job-handed-over-error.js';
import { JobScheduler } from '../scheduling/job-scheduler.js';
import { buildConversation } from './conversation.js';
import { converse } from './converse.js';
import { systemPromptFor } from './system-prompt.js';
import { opaqueUserId } from './user-hash.js';
import type { MessagesRequest } from '../genai/types.js';
import { copy } from '../copy/copy.js';
import { RateLimitedError } from '../surface/rate-limited-error.js';
import type { ReplyContext, ReplyStream, ThreadMessage } from '../surface/surface.js';
import { fencesBalanced, reassemble } from '../../testing/markdown.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { startService, type Service } from '../../testing/service.js';
import { alice, bob, bot, message } from '../../testing/thread.js';
import { eventually } from '@genbot/test-servers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const target = { channelId: 'C1', threadId: '1700000000.000100' };
const fast = { minEditIntervalMs: 40, minPostIntervalMs: 40 };

function thread(question: string): { history: ThreadMessage[]; trigger: ThreadMessage } {
  const trigger = message(bob, question);
  return { history: [message(alice, 'We are planning a trip.'), message(bot, 'Where to?'), trigger], trigger };
}

/** What the emulator answers for the same conversation, read in one go. */
async function expectedReply(history: ThreadMessage[], trigger: ThreadMessage): Promise<string> {
  const stream = service.client.streamMessage({
    model: 'chat-model-test',
    max_tokens: 4_096,
    messages: buildConversation(history, trigger),
  });
  return (await stream.finalMessage()).text;
}

describe('converse against the emulator', () => {
  it('streams the reply into the thread, with the thread as the conversation', async () => {
    const { history, trigger } = thread('What should we pack? [len:600]');
    const surface = new RecordingSurface({ progress: true, limits: fast, thread: history });
    expect(await converse({ target, trigger }, service.deps(surface))).toBe('done');
    const sent = service.emulator.requests.at(-1)?.body as { messages: unknown; model: string };
    expect(sent.model).toBe('chat-model-test');
    expect(sent.messages).toEqual([
      { role: 'user', content: 'Alice: We are planning a trip.' },
      { role: 'assistant', content: 'Where to?' },
      { role: 'user', content: 'Bob: What should we pack? [len:600]' },
    ]);
    expect(surface.texts()).toEqual([await expectedReply(history, trigger)]);
    expect(surface.messages[0]?.ref.threadId).toBe(target.threadId);
    expect(surface.progressTimes.length).toBeGreaterThanOrEqual(1);
  });

  it('asks with the system prompt for its platform and today, the max_tokens set, and an opaque user', async () => {
    const { history, trigger } = thread('Where is it warm in March?');
    const now = new Date('2027-03-05T10:00:00Z');
    const surface = new RecordingSurface({ platform: 'discord', limits: fast, thread: history });
    const base = service.deps(surface);
    const deps = { ...base, now: () => now, config: { ...base.config, maxTokens: 321, userIdKey: 'key-1' } };
    expect(await converse({ target, trigger }, deps)).toBe('done');
    const sent = service.emulator.requests.at(-1)?.body as MessagesRequest;
    expect(sent.system).toBe(systemPromptFor({ configured: undefined, platform: 'discord', now, tools: true }));
    expect(sent.system).toContain('Discord');
    expect(sent.max_tokens).toBe(321);
    expect(sent.metadata).toEqual({ user_id: opaqueUserId('discord', bob.id, 'key-1') });
    expect(JSON.stringify(sent.metadata)).not.toContain(bob.id);

    const configured = { ...deps, config: { ...deps.config, system: 'You are Ferris. Be brief.' } };
    expect(await converse({ target, trigger }, configured)).toBe('done');
    expect(service.emulator.requests.at(-1)?.body).toMatchObject({ system: 'You are Ferris. Be brief.' });
  });

  it('splits a long reply cleanly and delivers it exactly, through rate limits on edits', async () => {
    const { history, trigger } = thread('Tell me everything [len:9000]');
    const surface = new RecordingSurface({ progress: true, limits: { ...fast, maxMessageChars: 2_000 } });
    surface.failures.edit.push(new RateLimitedError(120), new RateLimitedError(60), new RateLimitedError(200));
    expect(await converse({ target, trigger, history }, service.deps(surface))).toBe('done');
    const texts = surface.texts();
    expect(texts.length).toBeGreaterThanOrEqual(5);
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(2_000);
      expect(fencesBalanced(text)).toBe(true);
    }
    expect(reassemble(texts)).toBe(await expectedReply(history, trigger));
    expect(surface.failures.edit).toHaveLength(0);
  });

  it('keeps the delivered text and adds a short human line when the stream fails midway', async () => {
    const { history, trigger } = thread('Go on [len:2000] [fault:stream-error]');
    const surface = new RecordingSurface({ progress: true, limits: fast });
    expect(await converse({ target, trigger, history }, service.deps(surface))).toBe('failed');
    const [text, ...rest] = surface.texts();
    expect(rest).toEqual([]);
    const [delivered, errorLine] = (text ?? '').split('\n\n⚠️ ');
    expect(delivered?.trim().length).toBeGreaterThan(0);
    expect(errorLine).toMatch(
      /^_This reply is incomplete\. The chat service is overloaded right now\. Try again in a minute\._$/,
    );
  });

  it('turns the placeholder into the error message when the service fails before any text', async () => {
    const { history, trigger } = thread('Hello? [fault:500]');
    const surface = new RecordingSurface({ limits: fast });
    expect(await converse({ target, trigger, history }, service.deps(surface))).toBe('failed');
    expect(surface.texts()).toHaveLength(1);
    expect(surface.texts()[0]).toMatch(/^⚠️ I couldn't answer: The chat service failed\. Try again/);
  });

  it('says so when the model refuses', async () => {
    const { history, trigger } = thread('Something bad [fault:safety]');
    const surface = new RecordingSurface({ progress: true, limits: fast });
    expect(await converse({ target, trigger, history }, service.deps(surface))).toBe('failed');
    expect(surface.texts()).toEqual(["I can't help with that one. Try rewording it."]);
  });

  it('keeps the text and adds a short note when the model stops it for safety part-way', async () => {
    const { history, trigger } = thread('Tell me more [len:400] [fault:safety-stop]');
    const surface = new RecordingSurface({ progress: true, limits: fast });
    expect(await converse({ target, trigger, history }, service.deps(surface))).toBe('failed');
    const [text, ...rest] = surface.texts();
    expect(rest).toEqual([]);
    const [delivered, note] = (text ?? '').split('\n\n');
    expect(delivered?.trim().length).toBeGreaterThan(0);
    expect(note).toBe(copy.replySafetyStop);
  });

  it("streams through the surface's own streaming when it offers one", async () => {
    const { history, trigger } = thread('Native please [len:300]');
    const surface = new RecordingSurface({ limits: fast });
    const calls: string[] = [];
    let opened: ReplyContext | undefined;
    const stream: ReplyStream = {
      maxChunkChars: 12_000,
      showStatus: async (status) => void calls.push(`status ${status}`),
      start: async (markdown) => void calls.push(`start ${markdown}`),
      append: async (markdown) => void calls.push(`append ${markdown}`),
      stop: async (markdown) => void calls.push(`stop ${markdown ?? ''}`),
    };
    const native = Object.assign(surface, {
      openStream: (_target: unknown, context: ReplyContext) => {
        opened = context;
        return stream;
      },
    });
    expect(await converse({ target, trigger, history }, service.deps(native))).toBe('done');
    expect(opened).toEqual({ recipientUserId: bob.id });
    expect(calls[0]).toBe(`status ${copy.thinkingStatus}`);
    expect(calls.at(-1)).toMatch(/^stop /);
    const text = calls
      .filter((call) => !call.startsWith('status'))
      .map((call) => call.replace(/^\w+ /, ''))
      .join('');
    expect(text).toBe(await expectedReply(history, trigger));
    expect(surface.messages).toHaveLength(0);
  });

  it('cuts a reply at its length limit with a short note, and reads no further', async () => {
    const { history, trigger } = thread('Ramble on [len:20000]');
    const surface = new RecordingSurface({ progress: true, limits: { ...fast, maxMessageChars: 4_000 } });
    const deps = { ...service.deps(surface), config: { ...service.deps(surface).config, maxReplyChars: 5_000 } };
    expect(await converse({ target, trigger, history }, deps)).toBe('done');
    const texts = surface.texts();
    expect(texts.at(-1)).toMatch(new RegExp(`${escapeRegExp(copy.replyTooLong)}$`));
    const shown = reassemble(texts).replace(/\n+(```\n+)?_The reply was getting too long, so it stops here\._$/, '');
    expect(shown.length).toBeLessThanOrEqual(5_000);
    expect((await expectedReply(history, trigger)).startsWith(shown.slice(0, 4_000))).toBe(true);
  });

  it('enforces max_tokens itself when the service runs past it', async () => {
    const { history, trigger } = thread('Never stop [len:50000] [fault:ignore-max-tokens]');
    const surface = new RecordingSurface({ progress: true, limits: { ...fast, maxMessageChars: 4_000 } });
    const base = service.deps(surface);
    // 500 tokens asked for: a reply of 50,000 characters is far past any count of them.
    const deps = { ...base, config: { ...base.config, maxTokens: 500 } };
    expect(await converse({ target, trigger, history }, deps)).toBe('done');
    const texts = surface.texts();
    expect(texts.at(-1)).toMatch(new RegExp(`${escapeRegExp(copy.replyTooLong)}$`));
    expect(texts.join('').length).toBeLessThan(500 * 2 * 4 + 200);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('converse cancelled, and under the scheduler', () => {
  it('a deleted trigger stops the stream: the text so far stays, with a short note', async () => {
    // 40 deltas, 100 ms apart: seconds of streaming left when the first text shows.
    const { history, trigger } = thread('Tell me a long story [len:2000] [delay:100]');
    const surface = new RecordingSurface({ progress: true, limits: fast });
    const registry = new CancellationRegistry();
    const key = 'slack:C1:1700000000.000100';
    const outcome = registry.run(key, (signal) =>
      converse({ target, trigger, history }, service.deps(surface), signal),
    );
    await eventually(() => surface.messages.length > 0);
    expect(registry.cancel(key)).toBe(true);
    expect(await outcome).toBe('failed');

    const [text, ...rest] = surface.texts();
    expect(rest).toEqual([]);
    expect(text).toMatch(/\n\n_Cancelled\._$/);
    // Cut off near the start of a reply of about 2,000 characters (50 a delta).
    const delivered = (text ?? '').replace(/\n\n_Cancelled\._$/, '');
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered.length).toBeLessThan(1_500);
    expect(registry.size).toBe(0);
  });

  it('ends with the restart note, keeping the question, rather than "Cancelled" when shutdown aborts it', async () => {
    const { history, trigger } = thread('Another long one [len:2000] [delay:100]');
    const surface = new RecordingSurface({ progress: true, limits: fast });
    const shutdown = new AbortController();
    const outcome = converse({ target, trigger, history }, service.deps(surface), shutdown.signal);
    await eventually(() => surface.messages.length > 0);
    shutdown.abort(new Error('shutting down'));
    expect(await outcome).toBe('failed');
    const [text, ...rest] = surface.texts();
    expect(rest).toEqual([]);
    expect(text).toMatch(
      /.\n\n🔄 I'm restarting\. “Another long one \[len:2000\] \[delay:100\]” will continue after the restart\.$/,
    );
  });

  it('leaves no closing line when its job was handed to another worker: that worker answers', async () => {
    const { history, trigger } = thread('A long one again [len:2000] [delay:100]');
    const surface = new RecordingSurface({ progress: true, limits: fast });
    const delivery = new AbortController();
    const outcome = converse({ target, trigger, history }, service.deps(surface), delivery.signal);
    await eventually(() => surface.messages.length > 0);
    delivery.abort(new JobHandedOverError('job-1'));
    expect(await outcome).toBe('failed');
    const [text, ...rest] = surface.texts();
    expect(rest).toEqual([]);
    expect(text).not.toMatch(/restarting|Cancelled|⚠️/);
  });

  it('shows a chat waiting for a free slot its place in line, then answers in the same message', async () => {
    const scheduler = new JobScheduler({ stream: { concurrency: 1 } });
    const controller = new AbortController();
    const first = thread('Long answer please [len:2000] [delay:100]');
    const busy = new RecordingSurface({ progress: true, limits: fast });
    const deps = (surface: RecordingSurface): ReturnType<Service['deps']> => ({ ...service.deps(surface), scheduler });
    const running = converse(
      { target, trigger: first.trigger, history: first.history, userId: bob.id },
      deps(busy),
      controller.signal,
    );
    await eventually(() => busy.messages.length > 0);

    const waiting = new RecordingSurface({ progress: true, limits: fast });
    const second = thread('Short one [len:100]');
    const answered = converse(
      { target, trigger: second.trigger, history: second.history, userId: alice.id },
      deps(waiting),
    );
    await eventually(() => waiting.messages.length > 0);
    expect(waiting.texts()).toEqual([copy.chatQueued(1)]);
    controller.abort(new Error('test over'));
    expect(await running).toBe('failed');
    expect(await answered).toBe('done');
    expect(waiting.texts()).toEqual([await expectedReply(second.history, second.trigger)]);
  });

  it('refuses a second stream of the same user with when to try again, and streams another user', async () => {
    const scheduler = new JobScheduler({ stream: { perUser: 1, typicalDurationMs: 8_000 } });
    const controller = new AbortController();
    const first = thread('Long answer please [len:2000] [delay:100]');
    const busy = new RecordingSurface({ progress: true, limits: fast });
    const deps = (surface: RecordingSurface): ReturnType<Service['deps']> => ({ ...service.deps(surface), scheduler });
    const running = converse(
      { target, trigger: first.trigger, history: first.history, userId: bob.id },
      deps(busy),
      controller.signal,
    );
    await eventually(() => busy.messages.length > 0);
    expect(scheduler.stats().stream).toEqual({ running: 1, queued: 0 });

    const requestsBefore = service.emulator.requests.length;
    const refused = new RecordingSurface({ progress: true, limits: fast });
    const second = thread('And another');
    expect(
      await converse({ target, trigger: second.trigger, history: second.history, userId: bob.id }, deps(refused)),
    ).toBe('rejected');
    expect(refused.texts()).toEqual(['⏳ You already have requests on the way. Try again in about 8 seconds.']);
    expect(service.emulator.requests.length).toBe(requestsBefore);

    const other = new RecordingSurface({ progress: true, limits: fast });
    const third = thread('Short one [len:100]');
    expect(
      await converse({ target, trigger: third.trigger, history: third.history, userId: alice.id }, deps(other)),
    ).toBe('done');

    controller.abort(new Error('test over'));
    expect(await running).toBe('failed');
    expect(scheduler.stats().stream).toEqual({ running: 0, queued: 0 });
  });
});
