import { copy } from '@genbot/core/copy';
import type { MessagesRequest } from '@genbot/core/genai';
import { JobScheduler } from '@genbot/core/scheduling';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, expectedReply, startHarness, storedResultOf, type Harness } from './support/harness.js';
import { answered, labelsOf, press } from './support/results.js';

/** Conversations that see images and act through generate_image and edit_image, through the real discord.js. */

let h: Harness;
/** One image job at a time: a test holds the lane to see a tool's reply while it waits to draw. */
const scheduler = new JobScheduler({ image: { concurrency: 1 } });

beforeAll(async () => {
  h = await startHarness({ scheduler });
});

afterAll(async () => {
  await h?.stop();
});

async function png(width: number, height: number, background: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

async function grayness(bytes: Buffer | undefined): Promise<number> {
  const [red, green, blue] = (await sharp(bytes).stats()).channels.map((channel) => channel.mean);
  return Math.abs((red ?? 0) - (green ?? 0)) + Math.abs((green ?? 0) - (blue ?? 0));
}

function generateRequests(on: Harness = h) {
  return on.emulator.requests.filter((request) => request.path.includes(':generateContent'));
}

/** A person mentions the bot in #general, in reply to `replyTo` when given. */
function mentions(user: string, text: string, replyTo?: DiscordMessage, on: Harness = h): DiscordMessage {
  return on.fake.userSays({
    user,
    channelId: on.channelId,
    content: `${on.mention} ${text}`,
    ...(replyTo === undefined ? {} : { replyTo: replyTo.id }),
  });
}

function repliesTo(message: DiscordMessage, on: Harness = h): DiscordMessage[] {
  return on.botMessages(on.channelId).filter((reply) => reply.reference?.messageId === message.id);
}

/** `/imagine PROMPT` run by `user`, once its result and its versions are there. */
async function imagined(user: string, prompt: string, on: Harness = h) {
  const started = on.fake.userRunsCommand({ user, channelId: on.channelId, name: 'imagine', options: { prompt } });
  return { started, result: await storedResultOf(on, started) };
}

/** Waits until the mention's job has finished, its usage recorded. */
function finished(message: DiscordMessage, on: Harness = h) {
  return eventually(
    async () => {
      const job = await on.store.jobs.get(`dc-msg-${message.id}`);
      return job?.state === 'finished' ? job : undefined;
    },
    { what: `the job of mention ${message.id} finished` },
  );
}

/**
 * The bot's messages requests for the conversation whose words include
 * `asked`, oldest first: one per round. The test's own requests (`replyWords`
 * asks again) carry no metadata, the bot's always do.
 */
function requestsFor(asked: string, on: Harness = h): MessagesRequest[] {
  return chatRequests(on.emulator).filter(
    (request) => request.metadata !== undefined && JSON.stringify(request.messages).includes(asked),
  );
}

/** The first `rounds` of those requests, once the bot has made that many. */
function replyRequests(asked: string, rounds: number, on: Harness = h): Promise<MessagesRequest[]> {
  return eventually(
    () => {
      const found = requestsFor(asked, on);
      return found.length >= rounds ? found.slice(0, rounds) : undefined;
    },
    { timeoutMs: 20_000, what: `${rounds} messages requests about ${JSON.stringify(asked)}` },
  );
}

/**
 * The words a conversation's reply must end up with: what the model said in
 * each of its first `rounds` messages requests, asked again of the
 * deterministic emulator, each round a paragraph of its own.
 */
async function replyWords(asked: string, rounds: number, on: Harness = h): Promise<string> {
  const requests = await replyRequests(asked, rounds, on);
  const said = await Promise.all(requests.map((request) => expectedReply(on.emulator, request)));
  return said.join('\n\n');
}

/** The bot's text reply to `mention` once it reads exactly `words`. */
function textReply(mention: DiscordMessage, words: string, on: Harness = h): Promise<DiscordMessage> {
  return on.fake
    .waitFor(
      () => repliesTo(mention, on).find((reply) => reply.attachments.length === 0 && reply.content === words),
      20_000,
    )
    .catch(() => {
      const shown = repliesTo(mention, on).map((reply) => reply.content);
      throw new Error(`the reply never read ${JSON.stringify(words)}; shown: ${JSON.stringify(shown)}`);
    });
}

/** The content blocks of the request's last turn, the person's: where the conversation's files go. */
function lastUserBlocks(request: MessagesRequest | undefined): unknown[] {
  const content = request?.messages.at(-1)?.content;
  return Array.isArray(content) ? content : [];
}

describe('Discord: a conversation sees images and draws and edits through its tools', () => {
  it('answers “what is in this picture?” in reply to its /imagine result from the pixels, drawing nothing', async () => {
    const { result: v1 } = await imagined('bob', 'a lighthouse at dusk');
    const bob = { platform: 'discord', workspaceId: h.fake.guildId, userId: h.fake.state.user('bob').id } as const;
    const before = await h.store.usage.totals(bob);
    const drawn = generateRequests().length;
    const question = 'what is in this picture?';

    const mention = mentions('bob', question, v1);
    const [request] = await replyRequests(question, 1);
    // The result reached the model as an image block, named, with the tools on offer.
    expect(request?.tools?.map((tool) => tool.name)).toEqual(['generate_image', 'edit_image']);
    const blocks = lastUserBlocks(request);
    expect(blocks).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: expect.any(String) },
    });
    expect(blocks).toContainEqual({ type: 'text', text: `Image "${v1.attachments[0]?.filename}":` });

    const { width, height } = await sharp(v1.attachments[0]?.bytes).metadata();
    const words = await replyWords(question, 1);
    expect(words).toMatch(
      new RegExp(`^Image 1 is ${width} × ${height} pixels, PNG, mostly \\w+ \\(#[0-9a-f]{6}\\)\\.$`),
    );
    const reply = await textReply(mention, words);
    await finished(mention);
    expect(repliesTo(mention)).toEqual([reply]);
    expect(generateRequests()).toHaveLength(drawn);
    const after = await h.store.usage.totals(bob);
    expect(after.today.images).toBe(before.today.images);
    expect(after.today.inputTokens).toBeGreaterThan(before.today.inputTokens);
  });

  it('draws on request: “draw a lighthouse at dawn, wide” posts a 16:9 result with its buttons, and the reply says so', async () => {
    const prompt = 'draw a lighthouse at dawn, wide';
    const drawn = generateRequests().length;

    const mention = mentions('ada', prompt);
    const result = await h.fake.waitFor(() => repliesTo(mention).find((reply) => reply.attachments.length > 0), 20_000);
    expect(result).toMatchObject({ type: 19, content: copy.imageComment(prompt) });
    expect(labelsOf(result)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit()]);
    const asked = generateRequests().slice(drawn);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.body).toMatchObject({ generationConfig: { imageConfig: { aspectRatio: '16:9' } } });
    const { width = 0, height = 1 } = await sharp(result.attachments[0]?.bytes).metadata();
    expect(width / height).toBeCloseTo(16 / 9, 1);

    // The model's first words, then its closing words once the tool's result went back to it.
    const words = await replyWords(prompt, 2);
    const reply = await textReply(mention, words);
    expect(
      repliesTo(mention)
        .map((message) => message.id)
        .sort(),
    ).toEqual([reply.id, result.id].sort());

    // A result like /imagine's: recorded as v1, and its buttons work.
    const [version] = await eventually(async () => {
      const found = await h.store.versions.byMessage('discord', h.channelId, result.id);
      return found.length > 0 ? found : undefined;
    });
    expect(version).toMatchObject({ number: 1, origin: 'generated', prompt });
    const varied = await storedResultOf(h, press(h.fake, 'bob', result, copy.buttonVary()));
    expect(varied.content).toBe(copy.variedComment(2, 1));
  });

  it('edits the version a mention replies to: “make it black and white” posts v2 · from v1 with Undo and Re-roll', async () => {
    const { started, result: v1 } = await imagined('ada', 'a red barn');
    const instruction = 'make it black and white';

    const mention = mentions('cy', instruction, v1);
    const edited = await h.fake.waitFor(() => repliesTo(mention).find((reply) => reply.attachments.length > 0), 20_000);
    expect(edited).toMatchObject({ type: 19, reference: { messageId: mention.id } });
    expect(edited.content).toBe(copy.editedComment(2, 1, instruction));
    expect(labelsOf(edited)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit(), copy.buttonUndo]);
    expect(await grayness(edited.attachments[0]?.bytes)).toBeLessThan(8);
    expect(await grayness(v1.attachments[0]?.bytes)).toBeGreaterThan(8);
    const [version] = await eventually(async () => {
      const found = await h.store.versions.byMessage('discord', h.channelId, edited.id);
      return found.length > 0 ? found : undefined;
    });
    expect(version).toMatchObject({ number: 2, origin: 'edited', parent: { jobId: `dc-int-${started.id}`, index: 0 } });

    const undone = await storedResultOf(h, press(h.fake, 'cy', edited, copy.buttonUndo));
    expect(undone.content).toBe(copy.restoredComment(1, 2));
    expect(undone.attachments[0]?.bytes).toEqual(v1.attachments[0]?.bytes);
  });

  it('shows what it draws in italics in the reply while the tool runs, and takes the line away at the end', async () => {
    const prompt = 'draw a quiet harbour';
    // Someone else's image job holds the lane: the tool waits for it, its line on show.
    let release = (): void => undefined;
    const holding = scheduler.schedule(
      'image',
      'someone-else',
      () => new Promise<void>((resolve) => (release = resolve)),
    );

    const mention = mentions('ada', prompt);
    const line = `_${copy.drawingActivity(prompt)}_`;
    const drawing = await h.fake
      .waitFor(() => repliesTo(mention).find((reply) => reply.content.includes(line)), 20_000)
      .finally(release);
    const shown = drawing.content;
    await holding;

    await h.fake.waitFor(() => repliesTo(mention).find((reply) => reply.attachments.length > 0), 20_000);
    const reply = await textReply(mention, await replyWords(prompt, 2));
    // The model's first words with the line after them; then the same message, edited, without it.
    expect(shown).toBe(`${await replyWords(prompt, 1)}\n\n${line}`);
    expect(reply.id).toBe(drawing.id);
    expect(reply.history.map((version) => version.content)).toContain(shown);
    expect(reply.content).not.toContain(copy.drawingActivity(prompt));
  });

  it.each([403, 404] as const)(
    'answers a conversation whose attachment the CDN refuses (%i), with a short note about that file',
    async (status) => {
      const question = `what colours are these, ${status}?`;
      const mention = h.fake.userSays({
        user: 'ada',
        channelId: h.channelId,
        content: `${h.mention} ${question}`,
        attachments: [
          { filename: 'kept.png', bytes: await png(48, 32, { r: 20, g: 40, b: 210 }) },
          { filename: 'refused.png', bytes: await png(32, 32, { r: 210, g: 30, b: 30 }) },
        ],
      });
      // Switched on before the bot hears of the message: the event only leaves once this test yields.
      const refusing = h.fake.failDownloads({ status, attachmentId: mention.attachments[1]?.id ?? '' });
      try {
        const [request] = await replyRequests(question, 1);
        const images = lastUserBlocks(request).filter(
          (block) => typeof block === 'object' && block !== null && 'type' in block && block.type === 'image',
        );
        expect(images).toHaveLength(1);
        const words = await replyWords(question, 1);
        expect(words).toMatch(/^Image 1 is 48 × 32 pixels, PNG, mostly blue/);
        // Discord's links that still fail after a fresh one may work later: the note says to try again.
        await textReply(mention, `${words}\n\n${copy.downloadFailed('refused.png')}`);
      } finally {
        refusing.off();
      }
    },
  );
});

describe('Discord: a tool call past the image quota', () => {
  let spent: Harness;

  beforeAll(async () => {
    spent = await startHarness({ quota: { imagesPerDay: 0 } });
  });

  afterAll(async () => {
    await spent?.stop();
  });

  it('is refused as /imagine would be: genbot says so in the reply, nothing is drawn, the model ends the reply', async () => {
    const mention = mentions('ada', 'draw a fox', undefined, spent);
    const [asked, told] = await replyRequests('draw a fox', 2, spent);
    expect(JSON.stringify(told?.messages.at(-1))).toContain('"is_error":true');
    const [before = '', closing = ''] = await Promise.all(
      [asked, told].map((request) => (request === undefined ? '' : expectedReply(spent.emulator, request))),
    );
    const reply = await spent.fake.waitFor(
      () =>
        repliesTo(mention, spent).find(
          (message) => message.content.startsWith(before) && message.content.endsWith(closing),
        ),
      20_000,
    );
    await finished(mention, spent);
    // Between the model's words, genbot's own: the refusal /imagine gives, whenever the quota resets.
    const refusal = reply.content.slice(before.length, reply.content.length - closing.length).trim();
    expect(refusal.split(' in ')[0]).toBe(copy.quotaReached('images', 0, 60).split(' in ')[0]);
    expect(repliesTo(mention, spent)).toEqual([reply]);
    expect(generateRequests(spent)).toHaveLength(0);
    const ada = {
      platform: 'discord',
      workspaceId: spent.fake.guildId,
      userId: spent.fake.state.user('ada').id,
    } as const;
    expect((await spent.store.usage.totals(ada)).today.images).toBe(0);
  });
});

describe('Discord: with CHAT_TOOLS=off', () => {
  let off: Harness;

  beforeAll(async () => {
    off = await startHarness({ chatTools: 'off' });
  });

  afterAll(async () => {
    await off?.stop();
  });

  it('answers “draw a fox” with words alone, while Edit image on a result still edits it', async () => {
    const mention = mentions('ada', 'draw a fox', undefined, off);
    const words = await replyWords('draw a fox', 1, off);
    expect(requestsFor('draw a fox', off)[0]?.tools).toBeUndefined();
    const reply = await textReply(mention, words, off);
    await finished(mention, off);
    expect(repliesTo(mention, off)).toEqual([reply]);
    expect(generateRequests(off)).toHaveLength(0);

    const { result: v1 } = await imagined('ada', 'a fox in the snow', off);
    const asked = chatRequests(off.emulator).length;
    const run = off.fake.userRunsMessageCommand({
      user: 'bob',
      channelId: off.channelId,
      messageId: v1.id,
      name: 'Edit image',
    });
    const opened: DiscordInteraction = await answered(off.fake, run);
    const submit = off.fake.userSubmitsModal({
      interactionId: opened.id,
      values: { instruction: 'make it grayscale' },
    });
    expect((await answered(off.fake, submit)).ephemeral).toBe(true);
    const edited = await off.fake.waitFor(
      () => repliesTo(v1, off).find((message) => message.attachments.length > 0),
      20_000,
    );
    expect(edited.content).toBe(copy.editedComment(2, 1, 'make it grayscale'));
    expect(labelsOf(edited)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit(), copy.buttonUndo]);
    expect(await grayness(edited.attachments[0]?.bytes)).toBeLessThan(8);
    // An edit of its own: no conversation asked the model for it.
    expect(chatRequests(off.emulator)).toHaveLength(asked);
    const job = await off.store.jobs.get(`dc-form-${run.id}`);
    expect(job).toMatchObject({ kind: 'message-edit' });
  });
});
