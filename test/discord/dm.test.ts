import { copy } from '@genbot/core/copy';
import type { MessagesRequest } from '@genbot/core/genai';
import type { DiscordMessage, DiscordUserSays } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { chatRequests, expectedReply, startHarness, storedResultOf, type Harness } from './support/harness.js';
import { labelsOf, press } from './support/results.js';

/** Direct messages with the bot, through the real discord.js: every message there is a turn. */

let h: Harness;

beforeAll(async () => {
  // Global commands, as production registers them: a server's own commands are not offered in a DM.
  h = await startHarness({ registerCommands: {} });
});

afterAll(async () => {
  await h?.stop();
});

/** A person writes to the bot in their DM with it, no mention. */
function dms(user: string, content: string, extra: Pick<DiscordUserSays, 'attachments'> = {}) {
  return h.fake.userSays({ user, channelId: h.fake.dmChannelId(user), content, ...extra });
}

function repliesTo(message: DiscordMessage, on: Harness = h): DiscordMessage[] {
  return on.botMessages(message.channelId).filter((reply) => reply.reference?.messageId === message.id);
}

/** Waits until the message's job has finished, its usage recorded. */
function finished(message: DiscordMessage, on: Harness = h) {
  return eventually(
    async () => {
      const job = await on.store.jobs.get(`dc-msg-${message.id}`);
      return job?.state === 'finished' ? job : undefined;
    },
    { timeoutMs: 20_000, what: `the job of message ${message.id} finished` },
  );
}

/** The bot's messages requests about `asked`, oldest first (the test's own carry no metadata). */
function requestsFor(asked: string): MessagesRequest[] {
  return chatRequests(h.emulator).filter(
    (request) => request.metadata !== undefined && JSON.stringify(request.messages).includes(asked),
  );
}

/** What the model said in its first `rounds` requests about `asked`, asked again of the deterministic emulator. */
async function replyWords(asked: string, rounds: number): Promise<{ words: string; requests: MessagesRequest[] }> {
  const requests = await eventually(
    () => {
      const found = requestsFor(asked);
      return found.length >= rounds ? found.slice(0, rounds) : undefined;
    },
    { timeoutMs: 20_000, what: `${rounds} messages requests about ${JSON.stringify(asked)}` },
  );
  const said = await Promise.all(requests.map((request) => expectedReply(h.emulator, request)));
  return { words: said.join('\n\n'), requests };
}

/** The bot's text reply to `message` once it reads exactly `words`. */
function textReply(message: DiscordMessage, words: string): Promise<DiscordMessage> {
  return h.fake
    .waitFor(
      () => repliesTo(message).find((reply) => reply.attachments.length === 0 && reply.content === words),
      20_000,
    )
    .catch(() => {
      const shown = repliesTo(message).map((reply) => reply.content);
      throw new Error(`the reply never read ${JSON.stringify(words)}; shown: ${JSON.stringify(shown)}`);
    });
}

function lastUserBlocks(request: MessagesRequest | undefined): unknown[] {
  const content = request?.messages.at(-1)?.content;
  return Array.isArray(content) ? content : [];
}

/** The person's own usage, as a DM records it: no server. */
function usageOf(user: string, on: Harness = h) {
  return on.store.usage.totals({ platform: 'discord', userId: on.fake.state.user(user).id });
}

/** Everything logged at info level or above. */
function infoLogs(on: Harness = h): string[] {
  return on.logs.filter((line) => {
    const level: unknown = JSON.parse(line).level;
    return typeof level === 'number' && level >= 30;
  });
}

describe('Discord: direct messages', () => {
  it('answers a DM without a mention as a reply to it, counted for the person with no server', async () => {
    const asked = 'hello there, what can you do?';
    const message = dms('alice', asked);
    const { words } = await replyWords(asked, 1);
    const reply = await textReply(message, words);
    expect(reply).toMatchObject({ type: 19, channelId: message.channelId, reference: { messageId: message.id } });
    const job = await finished(message);
    expect(job).toMatchObject({ kind: 'mention', channelId: message.channelId });
    expect(job.workspaceId ?? undefined).toBeUndefined();
    expect((await usageOf('alice')).today.inputTokens).toBeGreaterThan(0);
    expect(repliesTo(message)).toEqual([reply]);
    // The bot's own messages in the DM are no turns.
    for (const own of h.botMessages(message.channelId)) {
      expect(await h.store.jobs.get(`dc-msg-${own.id}`)).toBeUndefined();
    }
  });

  it('answers “what is in this?” about the image sent with it, drawing nothing', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .png()
      .toBuffer();
    const asked = 'what is in this?';
    const before = await usageOf('bob');
    const message = dms('bob', asked, { attachments: [{ filename: 'square.png', bytes: png }] });
    const { words, requests } = await replyWords(asked, 1);
    expect(lastUserBlocks(requests[0])).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: expect.any(String) },
    });
    expect(words).toMatch(/^Image 1 is 64 × 48 pixels, PNG, mostly blue \(#[0-9a-f]{6}\)\.$/);
    await textReply(message, words);
    await finished(message);
    expect((await usageOf('bob')).today.images).toBe(before.today.images);
  });

  it('draws on “draw a fox”: a result with its buttons as a reply, and a press on it works in the DM', async () => {
    const prompt = 'draw a fox';
    const message = dms('cy', prompt);
    const result = await h.fake.waitFor(() => repliesTo(message).find((reply) => reply.attachments.length > 0), 20_000);
    expect(result).toMatchObject({ type: 19, content: copy.imageComment(prompt) });
    expect(labelsOf(result)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit()]);
    const { words } = await replyWords(prompt, 2);
    await textReply(message, words);
    await finished(message);

    const varied = await storedResultOf(h, press(h.fake, 'cy', result, copy.buttonVary()));
    expect(varied).toMatchObject({ channelId: message.channelId, content: copy.variedComment(2, 1) });
    const made = result.attachments.length + varied.attachments.length;
    await eventually(async () => (await usageOf('cy')).today.images === made, { what: 'both results counted for cy' });
  });

  it('runs /imagine in the DM, its result with buttons there, on the person’s quota', async () => {
    const dm = h.fake.dmChannelId('dee');
    const started = h.fake.userRunsCommand({
      user: 'dee',
      channelId: dm,
      name: 'imagine',
      options: { prompt: 'a kite' },
    });
    const result = await storedResultOf(h, started);
    expect(result.channelId).toBe(dm);
    expect(labelsOf(result)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit()]);
    const job = await h.store.jobs.get(`dc-int-${started.id}`);
    expect(job?.workspaceId ?? undefined).toBeUndefined();
    const rerolled = await storedResultOf(h, press(h.fake, 'dee', result, copy.buttonReroll));
    expect(rerolled.channelId).toBe(dm);
    const made = result.attachments.length + rerolled.attachments.length;
    await eventually(async () => (await usageOf('dee')).today.images === made, {
      what: 'both results counted for dee',
    });
  });

  it('answers no bot: a DM from another bot is no turn', async () => {
    const fromBot = h.fake.userSays({
      user: { username: 'other-bot', bot: true },
      channelId: h.fake.dmChannelId({ username: 'other-bot', bot: true }),
      content: 'hello bot',
    });
    // Gateway events arrive in order: once a later DM is answered, the bot's has been passed over.
    const later = dms('alice', 'one more thing');
    await finished(later);
    expect(await h.store.jobs.get(`dc-msg-${fromBot.id}`)).toBeUndefined();
    expect(repliesTo(fromBot)).toEqual([]);
  });

  it('sees the DM’s recent turns without Reply, leaving out what is older than an hour', async () => {
    const old = dms('eve', 'my favourite colour is teal');
    await finished(old);
    h.fake.advanceClock(61 * 60_000);
    const told = dms('eve', 'the cat is called Miso');
    await finished(told);
    const [toldReply] = repliesTo(told);

    const asked = 'what is the cat called?';
    const question = dms('eve', asked);
    const { words, requests } = await replyWords(asked, 1);
    const conversation = requests[0]?.messages ?? [];
    expect(conversation.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user']);
    expect(conversation[0]?.content).toBe('eve: the cat is called Miso');
    expect(conversation[1]?.content).toBe(toldReply?.content.trim());
    expect(JSON.stringify(conversation)).not.toContain('teal');
    await textReply(question, words);

    // The job carried no conversation: its worker read the DM over REST.
    const job = await finished(question);
    expect(job.input).not.toHaveProperty('mention.history');
    expect(h.fake.state.botRequests).toContainEqual({
      method: 'GET',
      path: `/channels/${question.channelId}/messages`,
    });
  });

  it('writes no DM’s words into the logs at info level', () => {
    const said = ['hello there', 'what is in this', 'draw a fox', 'a kite', 'teal', 'Miso', 'one more thing'];
    const lines = infoLogs();
    expect(lines.length).toBeGreaterThan(0);
    for (const words of said) expect(lines.filter((line) => line.includes(words))).toEqual([]);
  });
});

describe('Discord: a DM past the person’s daily chat-token quota', () => {
  it('is refused with a short reply naming the quota, once the DMs before it used it up', async () => {
    const limited = await startHarness({ registerCommands: false, quota: { chatTokensPerDay: 1 } });
    onTestFinished(() => limited.stop());
    const dm = limited.fake.dmChannelId('fay');
    const first = limited.fake.userSays({ user: 'fay', channelId: dm, content: 'tell me a joke' });
    await finished(first, limited);
    const asked = limited.emulator.requests.length;

    const second = limited.fake.userSays({ user: 'fay', channelId: dm, content: 'and another' });
    const [refusal] = await eventually(() => {
      const replies = repliesTo(second, limited);
      return replies.length > 0 ? replies : undefined;
    });
    const [reached] = copy.quotaReached('chat tokens', 1, 60).split(' in ');
    expect(refusal?.content.split(' in ')[0]).toBe(reached);
    expect(limited.emulator.requests).toHaveLength(asked);
  });
});
