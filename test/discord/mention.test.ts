import { systemPromptFor } from '@genbot/core/chat';
import { copy } from '@genbot/core/copy';
import type { DiscordMessage } from '@genbot/fakes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  chatRequests,
  everythingSaid,
  expectedReply,
  nthChatRequest,
  SECRETS,
  startHarness,
  type Harness,
} from './support/harness.js';
import { expectCleanSplit } from './support/split-check.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.stop();
});

/** The bot's messages replying to `mention`, oldest first. */
function repliesTo(channelId: string, mention: DiscordMessage): DiscordMessage[] {
  return h.botMessages(channelId).filter((message) => message.reference?.messageId === mention.id);
}

/** The bot's reads of one message over REST. */
function readsOf(channelId: string, messageId: string): string[] {
  const path = `/channels/${channelId}/messages/${messageId}`;
  return h.fake.state.botRequests.flatMap((call) => (call.method === 'GET' && call.path === path ? [path] : []));
}

/**
 * Waits for the mention's conversation request, asks the emulator for the
 * same conversation, and waits until the bot's replies show exactly that.
 */
async function streamedReply(channelId: string, mention: DiscordMessage, timeoutMs = 20_000) {
  const request = await nthChatRequest(h.emulator, chatRequests(h.emulator).length + 1);
  const expected = await expectedReply(h.emulator, request);
  const replies = await h.fake
    .waitFor((_state) => {
      const found = repliesTo(channelId, mention);
      return found.length > 0 && found.map((message) => message.content).join('') === expected ? found : undefined;
    }, timeoutMs)
    .catch(() => {
      throw new Error(
        `reply never matched; got ${JSON.stringify(repliesTo(channelId, mention).map((m) => m.content))}`,
      );
    });
  return { request, expected, replies };
}

describe('mentions on Discord', () => {
  it('answers a mention in a channel with a reply streamed by editing it in place', async () => {
    const count = chatRequests(h.emulator).length;
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} tell me about lighthouses [len:600] [delay:300]`,
    });
    const { request, expected, replies } = await streamedReply(h.channelId, mention);
    expect(chatRequests(h.emulator)).toHaveLength(count + 2);
    expect(request.messages.at(-1)).toEqual({
      role: 'user',
      content: 'ada: tell me about lighthouses [len:600] [delay:300]',
    });
    expect(replies).toHaveLength(1);
    // The job carried the whole conversation (the mention alone): the worker read nothing back.
    expect(readsOf(h.channelId, mention.id)).toEqual([]);
    const [reply] = replies;
    expect(reply?.content).toBe(expected);
    // Posted with the first text, then edited as the rest streamed in.
    expect(reply?.history.length).toBeGreaterThanOrEqual(2);
    const versions = [...(reply?.history ?? []).map((version) => version.content), reply?.content ?? ''];
    for (const [index, version] of versions.entries()) {
      expect(version.length).toBeGreaterThan(0);
      if (index > 0) expect(version.startsWith(versions[index - 1] ?? '')).toBe(true);
    }
  });

  it('asks with the built-in system prompt naming Discord and today, the default max_tokens, and no Discord ID', async () => {
    const before = new Date();
    const mention = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} what can you do?` });
    const { request } = await streamedReply(h.channelId, mention);
    const after = new Date();
    // Either side of a UTC midnight the test may straddle.
    const expected = [before, after].map((now) =>
      systemPromptFor({ configured: undefined, platform: 'discord', now, tools: true }),
    );
    expect(expected).toContain(request.system);
    expect(request.system).toContain('You are genbot, an assistant in Discord.');
    expect(request.max_tokens).toBe(4_096);
    expect(request.metadata?.user_id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(request.metadata)).not.toContain(mention.author.id);
  });

  it('answers a mention in a thread in that thread, with the thread as the conversation', async () => {
    const thread = h.fake.createThread({ user: 'bob', channelId: h.channelId, name: 'lighthouse plans' });
    h.fake.userSays({ user: 'bob', channelId: thread.id, content: 'We are painting the lighthouse red and white.' });
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: thread.id,
      content: `${h.mention} which colour goes on top? [len:400] [delay:250]`,
    });
    const { request, expected, replies } = await streamedReply(thread.id, mention);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content:
          'bob: We are painting the lighthouse red and white.\n\nada: which colour goes on top? [len:400] [delay:250]',
      },
    ]);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.content).toBe(expected);
    expect(replies[0]?.history.length).toBeGreaterThanOrEqual(2);
    expect(h.botMessages(h.channelId).filter((message) => message.reference?.messageId === mention.id)).toEqual([]);
  });

  it('follows the reply chain in a channel: earlier replies are the conversation', async () => {
    const first = h.fake.userSays({
      user: 'cy',
      channelId: h.channelId,
      content: `${h.mention} name a famous lighthouse`,
    });
    const { expected: firstAnswer, replies } = await streamedReply(h.channelId, first);
    const answer = replies[0];
    if (answer === undefined) throw new Error('no answer');
    const second = h.fake.userSays({
      user: 'cy',
      channelId: h.channelId,
      content: `${h.mention} how tall is it?`,
      replyTo: answer.id,
    });
    const { request } = await streamedReply(h.channelId, second);
    expect(request.messages).toEqual([
      { role: 'user', content: 'cy: name a famous lighthouse' },
      { role: 'assistant', content: firstAnswer },
      { role: 'user', content: 'cy: how tall is it?' },
    ]);
  });

  it('takes a reply to a message that replies to nothing as the whole conversation, read from nowhere', async () => {
    const said = h.fake.userSays({
      user: 'dan',
      channelId: h.channelId,
      content: 'The lighthouse of Alexandria was one of the seven wonders.',
    });
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} how tall was it?`,
      replyTo: said.id,
    });
    const { request } = await streamedReply(h.channelId, mention);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: 'dan: The lighthouse of Alexandria was one of the seven wonders.\n\nada: how tall was it?',
      },
    ]);
    expect(readsOf(h.channelId, mention.id)).toEqual([]);
  });

  it('splits a reply over 2,000 characters cleanly into follow-up messages', async () => {
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} write a long essay [len:6000]`,
    });
    const request = await nthChatRequest(h.emulator, chatRequests(h.emulator).length + 1);
    const expected = await expectedReply(h.emulator, request);
    expect(expected.length).toBeGreaterThan(5_000);
    expect(expected).toContain('```ts');
    // Done once the messages hold the whole reply, split cleanly.
    await vi.waitFor(
      () =>
        expectCleanSplit(
          repliesTo(h.channelId, mention).map((message) => message.content),
          expected,
        ),
      { timeout: 30_000, interval: 50 },
    );
    expect(repliesTo(h.channelId, mention).length).toBeGreaterThanOrEqual(3);
  });

  it('delivers the exact final text when edits hit 429s', async () => {
    const limit = h.fake.rateLimit({ route: 'PATCH /channels/:id/messages/:id', limit: 1, windowMs: 1_500 });
    try {
      const hitsBefore = h.fake.state.rateLimitHits.length;
      const mention = h.fake.userSays({
        user: 'ada',
        channelId: h.channelId,
        content: `${h.mention} rate limited story [len:900] [delay:150]`,
      });
      const { expected, replies } = await streamedReply(h.channelId, mention, 30_000);
      expect(replies.map((message) => message.content)).toEqual([expected]);
      expect(h.fake.state.rateLimitHits.length).toBeGreaterThan(hitsBefore);
      expect(replies[0]?.history.length).toBeGreaterThanOrEqual(1);
    } finally {
      limit.off();
    }
  });

  it('shows the first words at once while the typing indicator waits out its own rate limit', async () => {
    const limit = h.fake.rateLimit({ route: 'POST /channels/:id/typing', limit: 1, windowMs: 20_000 });
    try {
      const first = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} one [len:60]` });
      await streamedReply(h.channelId, first);
      const started = Date.now();
      const second = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} two [len:60]` });
      await streamedReply(h.channelId, second);
      // Its typing waits in discord.js until the route's window ends, 20 s after the first; the reply does not.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      limit.off();
    }
  });

  it('edits the image of the message a mention replies to through the model’s edit_image: the edited JPEG, and the reply says so', async () => {
    const count = chatRequests(h.emulator).length;
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .jpeg()
      .toBuffer();
    const photo = h.fake.userSays({
      user: 'bob',
      channelId: h.channelId,
      content: 'my red square',
      attachments: [{ filename: 'square.jpg', contentType: 'image/jpeg', bytes: jpeg }],
    });
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} make it grayscale`,
      replyTo: photo.id,
    });
    const upload = await h.fake.waitFor(
      () => repliesTo(h.channelId, mention).find((message) => message.attachments.length > 0),
      15_000,
    );
    expect(upload.content).toBe(copy.editComment('make it grayscale'));
    const [edited] = upload.attachments;
    expect(edited?.contentType).toBe('image/jpeg');
    expect(edited?.filename).toMatch(/\.jpg$/);
    const image = sharp(edited?.bytes);
    const metadata = await image.metadata();
    expect(metadata.format).toBe('jpeg');
    expect([metadata.width, metadata.height]).toEqual([64, 48]);
    const { channels } = await image.stats();
    const [red, green, blue] = channels.map((channel) => channel.mean);
    expect(Math.abs((red ?? 0) - (green ?? 0))).toBeLessThan(8);
    expect(Math.abs((green ?? 0) - (blue ?? 0))).toBeLessThan(8);
    // The model saw the photo and was offered the tools; its second request carries the tool's result.
    await nthChatRequest(h.emulator, count + 2);
    const [asked, told] = chatRequests(h.emulator).slice(count, count + 2);
    expect(asked?.tools?.map((tool) => tool.name)).toEqual(['generate_image', 'edit_image']);
    expect(JSON.stringify(asked?.messages.at(-1))).toContain('"type":"image"');
    expect(JSON.stringify(told?.messages.at(-1))).toContain('"type":"tool_result"');
    // Beside the result, one reply in the model's words, both rounds of them; the activity line is gone.
    const said = await Promise.all([asked, told].map((request) => (request ? expectedReply(h.emulator, request) : '')));
    const words = said.join('\n\n');
    const reply = await h.fake.waitFor(
      () =>
        repliesTo(h.channelId, mention).find(
          (message) => message.attachments.length === 0 && message.content === words,
        ),
      10_000,
    );
    expect(
      repliesTo(h.channelId, mention)
        .map((message) => message.id)
        .sort(),
    ).toEqual([reply.id, upload.id].sort());
  });

  it('ends a service failure (503 after retries) in a short human message', async () => {
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} are you there? [fault:503]`,
    });
    const reply = await h.fake.waitFor(
      () => repliesTo(h.channelId, mention).find((message) => message.content.startsWith('⚠️')),
      15_000,
    );
    expect(reply.content).toMatch(/^⚠️ I couldn't answer: .+/);
    expect(reply.content).toMatch(/try again/i);
    expect(reply.content).not.toMatch(/Error:|stack|\{|\bat .+:\d+:\d+/);
  });

  it('ends a safety block in a short human message', async () => {
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} something forbidden [fault:safety]`,
    });
    const [reply] = await vi.waitFor(
      () => {
        const replies = repliesTo(h.channelId, mention);
        expect(replies.map((message) => message.content)).toEqual([copy.replyRefused]);
        return replies;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(reply?.content).not.toMatch(/Error:|stack|\{/);
  });

  it('ignores its own messages and other bots’ messages', async () => {
    const requests = h.emulator.requests.length;
    const messages = h.fake.state.allMessages.length;
    h.fake.userSays({
      user: { username: 'other-bot', bot: true },
      channelId: h.channelId,
      content: `${h.mention} hello fellow bot`,
    });
    h.fake.userSays({
      user: { username: h.fake.botUser.username, id: h.fake.botUser.id },
      channelId: h.channelId,
      content: `${h.mention} talking to myself`,
    });
    // Events reach the bot in order: once a person's mention sent after these is answered, the bot
    // has long begun whatever it would have done about them.
    const marker = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} still there?` });
    const { request } = await streamedReply(h.channelId, marker);
    expect(request.messages).toEqual([{ role: 'user', content: 'ada: still there?' }]);
    const since = h.fake.state.allMessages.slice(messages);
    expect(
      since.filter((message) => message.id !== marker.id && message.reference?.messageId !== marker.id),
    ).toHaveLength(2);
    // The marker's conversation request and the replay behind its expected reply: nothing else.
    expect(h.emulator.requests.length).toBe(requests + 2);
  });

  it('never puts the token or the API key in a log line or a message', () => {
    expect(h.logs.length).toBeGreaterThan(0);
    for (const text of everythingSaid(h)) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});
