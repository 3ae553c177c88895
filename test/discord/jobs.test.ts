import { copy } from '@genbot/core/copy';
import sharp from 'sharp';
import type { ChatJob } from '@genbot/core/jobs';
import type { DiscordInteraction } from '@genbot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingSaid, SECRETS, startHarness, type Harness } from './support/harness.js';
import { fromStorage, TestWorker } from './support/test-worker.js';

const INTERACTION_TOKEN_MS = 15 * 60_000;

let h: Harness;
let worker: TestWorker;

beforeAll(async () => {
  h = await startHarness({
    jobs: async (services) => {
      worker = await TestWorker.start({ ...services, overQuota: [services.fake.state.user('bob').id] });
      return { intake: worker, usage: worker };
    },
  });
});

afterAll(async () => {
  await worker?.close();
  await h?.stop();
});

function submitted(id: string): ChatJob[] {
  return worker.submitted.map(fromStorage).filter((job) => job.id === id);
}

function runs(user: string, name: string, options: Record<string, string> = {}): DiscordInteraction {
  return h.fake.userRunsCommand({ user, channelId: h.channelId, name, options });
}

/** Waits for the interaction's first answer from the bot. */
function acknowledged(started: DiscordInteraction): Promise<DiscordInteraction> {
  return h.fake.waitFor((state) => {
    const current = state.interaction(started.id);
    return current?.status === 'acknowledged' ? current : undefined;
  }, 5_000);
}

/** Waits until the interaction's original response shows something other than the progress line. */
async function finished(interaction: DiscordInteraction, prompt: string): Promise<DiscordInteraction> {
  return h.fake.waitFor((state) => {
    const current = state.interaction(interaction.id);
    if (current?.originalMessageId == null) return undefined;
    const content = state.message(current.channelId, current.originalMessageId)?.content ?? '';
    return content !== '' && content !== copy.imagining(prompt) ? current : undefined;
  }, 15_000);
}

describe('Discord: /imagine and mentions as jobs', () => {
  it('submits /imagine as a job before answering, then a worker with no gateway fills in the public defer', async () => {
    const prompt = 'a paper boat on a pond';
    const started = runs('ada', 'imagine', { prompt });
    const interaction = await finished(started, prompt);

    const [job, ...again] = submitted(`dc-int-${started.id}`);
    expect(again).toEqual([]);
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
    expect(original?.content).toBe(copy.imagineDone(prompt, { uploaded: 1, tooLarge: 0 }));
    const [upload] = interaction.followUpMessageIds.map((id) => h.fake.state.message(interaction.channelId, id));
    expect(upload?.attachments).toHaveLength(1);
  });

  it('submits a mention as a job; the worker replies to the mention', async () => {
    const mention = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} hello there` });
    const reply = await h.fake.waitFor(
      () => h.botMessages(h.channelId).find((message) => message.reference?.messageId === mention.id),
      15_000,
    );
    const [job] = submitted(`dc-msg-${mention.id}`);
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
    const photo = h.fake.userSays({
      user: 'bob',
      channelId: h.channelId,
      content: 'a blue square',
      attachments: [{ filename: 'square.png', contentType: 'image/png', bytes: png }],
    });
    const release = worker.hold();
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} make it grayscale`,
      replyTo: photo.id,
    });
    await h.fake.waitFor(() => (submitted(`dc-msg-${mention.id}`).length === 1 ? true : undefined), 5_000);
    // The job holds the links of its time; they stop working while it waits.
    h.fake.state.cdn.expireAll();
    release();
    const upload = await h.fake.waitFor(
      () =>
        h
          .botMessages(h.channelId)
          .find((message) => message.reference?.messageId === mention.id && message.attachments.length > 0),
      15_000,
    );
    expect(upload.content).toBe(copy.editComment('make it grayscale'));
  });

  it('answers /usage privately with what the usage reporter says for this user', async () => {
    const started = runs('ada', 'usage');
    const interaction = await acknowledged(started);
    expect(interaction.responseType).toBe(4);
    expect(interaction.ephemeral).toBe(true);
    const answer = h.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '');
    expect(answer?.content).toBe(`usage of ${h.fake.state.user('ada').id} in ${h.fake.guildId} on discord`);
  });

  it('refuses /imagine over quota with a private answer, never a public defer, and runs nothing', async () => {
    const bob = h.fake.state.user('bob').id;
    const started = runs('bob', 'imagine', { prompt: 'a castle' });
    const interaction = await acknowledged(started);
    expect(interaction.responseType).toBe(4);
    expect(interaction.ephemeral).toBe(true);
    expect(interaction.followUpMessageIds).toEqual([]);
    const answer = h.fake.state.message(interaction.channelId, interaction.originalMessageId ?? '');
    expect(answer?.content).toBe(TestWorker.quotaAnswer(bob));
    expect(submitted(`dc-int-${started.id}`)).toHaveLength(1);
  });

  it('refuses a mention over quota with one short reply', async () => {
    const bob = h.fake.state.user('bob').id;
    const mention = h.fake.userSays({ user: 'bob', channelId: h.channelId, content: `${h.mention} write me a poem` });
    const reply = await h.fake.waitFor(
      () => h.botMessages(h.channelId).find((message) => message.reference?.messageId === mention.id),
      5_000,
    );
    expect(reply.content).toBe(TestWorker.quotaAnswer(bob));
    // A little later there is still only that one reply.
    h.fake.userSays({ user: 'ada', channelId: h.channelId, content: 'unrelated' });
    expect(h.botMessages(h.channelId).filter((message) => message.reference?.messageId === mention.id)).toHaveLength(1);
  });

  it('answers a mention delivered twice once', async () => {
    const mention = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} count to three` });
    h.fake.redeliver({ channelId: h.channelId, messageId: mention.id });
    // Gateway events arrive in order: once this one is answered, the repeat has been handled.
    const later = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: `${h.mention} and to four` });
    const repliesTo = (id: string) =>
      h.botMessages(h.channelId).filter((message) => message.reference?.messageId === id);
    await h.fake.waitFor(() => (repliesTo(later.id).length > 0 ? true : undefined), 15_000);
    await worker.idle();
    // discord.js drops a repeat of a message it holds already; one that got through is one job at the intake.
    expect(repliesTo(mention.id)).toHaveLength(1);
  });

  it('answers an interaction delivered twice once, and never calls back twice', async () => {
    const prompt = 'two moons';
    const started = runs('ada', 'imagine', { prompt });
    await acknowledged(started);
    h.fake.redeliver({ interactionId: started.id });
    await h.fake.waitFor(() => (submitted(`dc-int-${started.id}`).length === 2 ? true : undefined), 5_000);
    const interaction = await finished(started, prompt);
    expect(interaction.followUpMessageIds).toHaveLength(1);
    expect(h.logs.join('')).not.toContain('could not answer the interaction');
  });

  it('never writes an interaction token or a secret to a log or a message', () => {
    const tokens = h.fake.state.interactions.map((interaction) => interaction.token);
    expect(tokens.length).toBeGreaterThan(0);
    for (const text of everythingSaid(h))
      for (const secret of [...SECRETS, ...tokens]) expect(text).not.toContain(secret);
  });
});
