import { copy } from '@genbot/core/copy';
import sharp from 'sharp';
import { type ChatJob, parseChatJob } from '@genbot/core/jobs';
import type { DiscordInteraction } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { everythingSaid, SECRETS, startHarness, type Harness } from './support/harness.js';
import { resultOf } from './support/results.js';

const INTERACTION_TOKEN_MS = 15 * 60_000;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.stop();
});

/** The job as ingress recorded it, read back as a worker reads it; undefined when nothing was recorded. */
async function recorded(on: Harness, id: string): Promise<ChatJob | undefined> {
  const record = await on.store.jobs.get(id);
  return record === undefined ? undefined : parseChatJob(record);
}

/** A harness of this test alone, stopped when it ends. */
async function ownHarness(options: Parameters<typeof startHarness>[0]): Promise<Harness> {
  const own = await startHarness(options);
  onTestFinished(() => own.stop());
  return own;
}

/** Whether `text` is the refusal of a used-up daily quota of `quota`. */
function quotaRefusal(text: string | undefined, quota: 'images' | 'chat tokens'): boolean {
  const [reached] = copy.quotaReached(quota, 0, 60).split(' in ');
  return reached !== undefined && text?.split(' in ')[0] === reached;
}

function runs(user: string, name: string, options: Record<string, string> = {}, on: Harness = h): DiscordInteraction {
  return on.fake.userRunsCommand({ user, channelId: on.channelId, name, options });
}

/** Waits for the interaction's first answer from the bot. */
function acknowledged(started: DiscordInteraction, on: Harness = h): Promise<DiscordInteraction> {
  return on.fake.waitFor((state) => {
    const current = state.interaction(started.id);
    return current?.status === 'acknowledged' ? current : undefined;
  }, 5_000);
}

/** Waits until the interaction's original response holds its result; the interaction then. */
async function finished(started: DiscordInteraction): Promise<DiscordInteraction> {
  await resultOf(h.fake, started);
  const current = h.fake.state.interaction(started.id);
  if (current === undefined) throw new Error(`no interaction ${started.id}`);
  return current;
}

describe('Discord: /imagine and mentions as jobs', () => {
  it('records /imagine as a job before answering, then the worker (REST only) fills in the public defer', async () => {
    const prompt = 'a paper boat on a pond';
    const started = runs('ada', 'imagine', { prompt });
    const interaction = await finished(started);

    const job = await recorded(h, `dc-int-${started.id}`);
    expect(job).toMatchObject({
      platform: 'discord',
      workspaceId: h.fake.guildId,
      channelId: h.channelId,
      userId: h.fake.state.user('ada').id,
      input: { kind: 'imagine', imagine: { prompt, target: { channelId: h.channelId } } },
    });
    // The token lives only in `interaction`, with the moment it stops working.
    expect(job?.interaction?.token).toBe(started.token);
    expect(job?.interaction?.expiresAt.getTime()).toBeGreaterThan(started.createdAt + INTERACTION_TOKEN_MS - 2_000);
    expect(job?.interaction?.expiresAt.getTime()).toBeLessThanOrEqual(started.createdAt + INTERACTION_TOKEN_MS);
    expect(JSON.stringify(job?.input)).not.toContain(started.token);

    expect(interaction.responseType).toBe(5);
    expect(interaction.ephemeral).toBe(false);
    const original = h.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '');
    expect(original?.content).toBe(copy.imageComment(prompt));
    expect(original?.attachments).toHaveLength(1);
    expect(interaction.followUpMessageIds).toEqual([]);
  });

  it('defers /imagine before queueing it: with Discord slow to take the defer, the worker never meets a missing webhook', async () => {
    const unknownWebhooks = () => h.fake.state.refusals.filter((refusal) => refusal.code === 10015).length;
    const before = unknownWebhooks();
    // The defer takes a second to count: a worker that reached the webhook first would be told it does not exist.
    const slow = h.fake.slowCallbacks({ delayMs: 1_000, times: 1 });
    onTestFinished(() => slow.off());
    const prompt = 'a patient heron';
    const started = runs('ada', 'imagine', { prompt });
    const interaction = await finished(started);
    expect(unknownWebhooks()).toBe(before);
    // The worker took the job only once Discord had the defer.
    const record = await h.store.jobs.get(`dc-int-${started.id}`);
    expect(record?.startedAt?.getTime()).toBeGreaterThanOrEqual(interaction.acknowledgedAt ?? Number.POSITIVE_INFINITY);
    const original = h.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '');
    expect(original?.content).toBe(copy.imageComment(prompt));
    expect(original?.history.map((version) => version.content)).toContain(copy.imagining(prompt));
  });

  it('records a mention as a job; the worker replies to the mention', async () => {
    const mention = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} hello there` });
    const reply = await h.fake.waitFor(
      () => h.botMessages(h.channelId).find((message) => message.reference?.messageId === mention.id),
      15_000,
    );
    const job = await recorded(h, `dc-msg-${mention.id}`);
    expect(job).toMatchObject({
      channelId: h.channelId,
      threadId: mention.id,
      input: { kind: 'mention', mention: { trigger: { id: mention.id, text: 'hello there' } } },
    });
    expect(job?.interaction).toBeUndefined();
    expect(reply.content).not.toBe('');
  });

  it('edits an image from a job that waited past its CDN links: the worker fetches the message again', async () => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 0, g: 90, b: 200 } } })
      .png()
      .toBuffer();
    // No worker yet: the job waits in the queue.
    const waiting = await ownHarness({ worker: false });
    const photo = waiting.fake.userSays({
      user: 'bob',
      channelId: waiting.channelId,
      content: 'a blue square',
      attachments: [{ filename: 'square.png', contentType: 'image/png', bytes: png }],
    });
    const mention = waiting.fake.userSays({
      user: 'ada',
      channelId: waiting.channelId,
      content: `${waiting.mention} make it grayscale`,
      replyTo: photo.id,
    });
    await eventually(() => recorded(waiting, `dc-msg-${mention.id}`), { what: 'the mention recorded as a job' });
    // The job holds the links of its time; they stop working while it waits.
    waiting.fake.state.cdn.expireAll();
    await waiting.startWorker();
    const upload = await waiting.fake.waitFor(
      () =>
        waiting
          .botMessages(waiting.channelId)
          .find((message) => message.reference?.messageId === mention.id && message.attachments.length > 0),
      15_000,
    );
    expect(upload.content).toBe(copy.editComment('make it grayscale'));
  });

  it('answers /usage privately with what the usage reporter says for this user', async () => {
    const started = runs('carol', 'usage');
    const interaction = await acknowledged(started);
    expect(interaction.responseType).toBe(4);
    expect(interaction.ephemeral).toBe(true);
    const answer = h.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '');
    const carol = { platform: 'discord', userId: h.fake.state.user('carol').id, workspaceId: h.fake.guildId } as const;
    expect(answer?.content).toBe(await h.jobs.usage.answer(carol));
  });

  it('refuses /imagine over quota with a private answer, never a public defer, and runs nothing', async () => {
    const spent = await ownHarness({ quota: { imagesPerDay: 0 } });
    const started = runs('bob', 'imagine', { prompt: 'a castle' }, spent);
    const interaction = await acknowledged(started, spent);
    expect(interaction.responseType).toBe(4);
    expect(interaction.ephemeral).toBe(true);
    expect(interaction.followUpMessageIds).toEqual([]);
    const answer = spent.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '');
    expect(quotaRefusal(answer?.content, 'images')).toBe(true);
    expect(await recorded(spent, `dc-int-${started.id}`)).toBeUndefined();
    expect(spent.emulator.requests).toEqual([]);
  });

  it('refuses a mention over quota with one short reply, and its repeats with a mark', async () => {
    const spent = await ownHarness({ quota: { chatTokensPerDay: 0 } });
    const say = (text: string) =>
      spent.fake.userSays({ user: 'bob', channelId: spent.channelId, content: `${spent.mention} ${text}` });
    const repliesTo = (id: string) =>
      spent.botMessages(spent.channelId).filter((message) => message.reference?.messageId === id);
    const mention = say('write me a poem');
    const [reply] = await eventually(() => (repliesTo(mention.id).length > 0 ? repliesTo(mention.id) : undefined));
    expect(quotaRefusal(reply?.content, 'chat tokens')).toBe(true);
    // The next refusal is a mark on the mention: once it shows, the first has had every answer it gets.
    const marker = say('and another');
    await eventually(() => spent.fake.state.message(spent.channelId, marker.id)?.botReactions.length, {
      what: 'the second refusal marked',
    });
    expect(repliesTo(mention.id)).toHaveLength(1);
    expect(repliesTo(marker.id)).toEqual([]);
    expect(spent.emulator.requests).toEqual([]);
  });

  it('answers a mention delivered twice once', async () => {
    const mention = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} count to three` });
    h.fake.redeliver({ channelId: h.channelId, messageId: mention.id });
    // Gateway events arrive in order: once this one is answered, the repeat has been handled.
    const later = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} and to four` });
    const repliesTo = (id: string) =>
      h.botMessages(h.channelId).filter((message) => message.reference?.messageId === id);
    await eventually(() => repliesTo(later.id).length > 0 && repliesTo(mention.id).length > 0, {
      what: 'both mentions answered',
    });
    // discord.js drops a repeat of a message it holds already; one that got through is one job at the intake.
    expect(repliesTo(mention.id)).toHaveLength(1);
  });

  it('answers an interaction delivered twice once, and never calls back twice', async () => {
    const prompt = 'two moons';
    const started = runs('ada', 'imagine', { prompt });
    await acknowledged(started);
    h.fake.redeliver({ interactionId: started.id });
    await eventually(() => h.logs.some((line) => line.includes('delivered again') && line.includes(started.id)), {
      what: 'the repeat taken as one',
    });
    const interaction = await finished(started);
    expect(interaction.followUpMessageIds).toEqual([]);
    expect(h.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '')?.attachments).toHaveLength(
      1,
    );
    expect(h.logs.join('')).not.toContain('could not answer the interaction');
  });

  it('never writes an interaction token or a secret to a log or a message', () => {
    const tokens = h.fake.state.interactions.map((interaction) => interaction.token);
    expect(tokens.length).toBeGreaterThan(0);
    for (const text of everythingSaid(h))
      for (const secret of [...SECRETS, ...tokens]) expect(text).not.toContain(secret);
  });
});
