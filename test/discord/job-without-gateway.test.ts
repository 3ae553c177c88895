import { copy } from '@genbot/core/copy';
import { GenAiClient } from '@genbot/core/genai';
import type { ChatJob } from '@genbot/core/jobs';
import { connectDiscordSurfaces, registerCommands } from '@genbot/discord-bot';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startDiscordFake, type DiscordFake, type DiscordInteraction } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, BOT_TOKEN, captureLogs, type JobsFloor, openJobsFloor } from './support/harness.js';

/**
 * No bot is connected here: nothing holds a gateway session. A job, as
 * ingress records it in the store, is all the worker gets; it answers on
 * REST-only surfaces made from this process's configuration.
 */
let fake: DiscordFake;
let emulator: Emulator;
let client: GenAiClient;
let floor: JobsFloor;
let closeSurfaces: () => Promise<void>;

beforeAll(async () => {
  fake = await startDiscordFake({ botToken: BOT_TOKEN });
  emulator = await startEmulator({ apiKey: API_KEY });
  const { logger } = captureLogs();
  client = new GenAiClient({ baseUrl: emulator.url, apiKey: API_KEY, retryBaseDelayMs: 5, logger });
  floor = await openJobsFloor({ client, logger });
  const worker = await connectDiscordSurfaces({ token: fake.botToken, apiUrl: fake.apiUrl });
  closeSurfaces = worker.close;
  await floor.jobs.startWorker([worker.surfaces]);
  await registerCommands({
    discord: { token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl },
    guildId: fake.guildId,
    logger,
  });
});

afterAll(async () => {
  await floor?.close();
  await closeSurfaces?.();
  await Promise.allSettled([client?.close(), emulator?.close(), fake?.close()]);
});

function imagineJob(options: { interactionId: string; token: string; expiresAt: number; prompt: string }): ChatJob {
  const channelId = fake.channelId('general');
  const userId = fake.state.user('ada').id;
  return {
    id: `dc-int-${options.interactionId}`,
    platform: 'discord',
    workspaceId: fake.guildId,
    channelId,
    userId,
    input: { kind: 'imagine', imagine: { target: { channelId }, prompt: options.prompt, userId } },
    interaction: { token: options.token, expiresAt: new Date(options.expiresAt) },
  };
}

/** Records and queues the job as ingress does, and waits for the worker to finish it. */
async function run(job: ChatJob): Promise<void> {
  expect(await floor.jobs.botJobs.intake.submit(job)).toMatchObject({ accepted: true, duplicate: false });
  const record = await eventually(
    async () => {
      const found = await floor.store.jobs.get(job.id);
      return found?.state === 'finished' ? found : undefined;
    },
    { what: `job ${job.id} finished` },
  );
  expect(record.outcome).toBe('done');
}

/** ada runs `/imagine`; no bot is connected to answer it. */
function adaImagines(prompt: string): DiscordInteraction {
  const channelId = fake.channelId('general');
  return fake.userRunsCommand({ user: 'ada', channelId, name: 'imagine', options: { prompt } });
}

/** What ingress did before the job ran: the public defer (no bot runs here to send it). */
async function deferPublicly(interactionId: string, token: string): Promise<void> {
  const response = await fetch(`${fake.apiUrl}/v10/interactions/${interactionId}/${token}/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 5 }),
  });
  expect(response.status).toBe(204);
}

describe('a Discord job run from its data alone, with no gateway', () => {
  it('answers a mention job as a reply to the mention', async () => {
    expect(fake.connectedSessions()).toBe(0);
    const channelId = fake.channelId('general');
    const mention = fake.userSays({ user: 'ada', channelId, content: `<@${fake.botUser.id}> say something nice` });
    const userId = fake.state.user('ada').id;
    const trigger = {
      id: mention.id,
      author: { id: userId, name: 'ada', isBot: false, isSelf: false },
      text: 'say something nice',
      attachments: [],
    };
    await run({
      id: `dc-msg-${mention.id}`,
      platform: 'discord',
      workspaceId: fake.guildId,
      channelId,
      threadId: mention.id,
      userId,
      input: { kind: 'mention', mention: { target: { channelId, threadId: mention.id }, trigger, userId } },
    });
    const replies = fake.state
      .messages(channelId)
      .filter((message) => message.author.id === fake.botUser.id && message.reference?.messageId === mention.id);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.content).not.toBe('');
  });

  it('reads a channel it has not seen once, however many of its jobs start together', async () => {
    const channelId = fake.state.addChannel('lobby').id;
    // Three people, so no one's share of the lane holds a job back.
    const people = { one: 'ada', two: 'bob', three: 'carol' };
    const jobs = Object.entries(people).map(([word, name]): ChatJob => {
      const userId = fake.state.user(name).id;
      const mention = fake.userSays({ user: name, channelId, content: `<@${fake.botUser.id}> ${word}` });
      const trigger = {
        id: mention.id,
        author: { id: userId, name, isBot: false, isSelf: false },
        text: word,
        attachments: [],
      };
      const target = { channelId, threadId: mention.id };
      return {
        id: `dc-msg-${mention.id}`,
        platform: 'discord',
        workspaceId: fake.guildId,
        channelId,
        threadId: mention.id,
        userId,
        input: { kind: 'mention', mention: { target, trigger, history: [trigger], userId } },
      };
    });
    const before = fake.state.botRequests.length;
    await Promise.all(jobs.map(run));
    const reads = fake.state.botRequests
      .slice(before)
      .filter((call) => call.method === 'GET' && call.path.startsWith('/channels/'));
    // What it takes to build one channel without a gateway (its place, then the channel), once.
    expect(reads.map((call) => call.path)).toEqual([`/channels/${channelId}`, `/channels/${channelId}`]);
  });

  it('fills in a deferred /imagine through the interaction webhook while the token lasts', async () => {
    const prompt = 'a quiet harbour';
    const interaction = adaImagines(prompt);
    await deferPublicly(interaction.id, interaction.token);
    const expiresAt = interaction.createdAt + 15 * 60_000;
    await run(imagineJob({ interactionId: interaction.id, token: interaction.token, expiresAt, prompt }));
    const done = fake.state.interaction(interaction.id);
    const original = fake.state.message(interaction.channelId, done?.originalMessageId ?? '');
    // The result takes the place of the progress line: one message, with the image.
    expect(original?.content).toBe(copy.imageComment(prompt));
    expect(original?.attachments).toHaveLength(1);
    expect(done?.followUpMessageIds).toEqual([]);
  });

  it('past the token’s life, answers with plain channel messages', async () => {
    const prompt = 'a late answer';
    const channelId = fake.channelId('general');
    const interaction = adaImagines(prompt);
    await deferPublicly(interaction.id, interaction.token);
    const before = fake.state.messages(channelId).length;
    await run(
      imagineJob({ interactionId: interaction.id, token: interaction.token, expiresAt: Date.now() - 1, prompt }),
    );
    const posted = fake.state.messages(channelId).slice(before);
    // The progress message gave way to the result, as a channel message of its own.
    expect(posted.map((message) => message.content)).toEqual([copy.imageComment(prompt)]);
    expect(posted.map((message) => message.interaction)).toEqual([null]);
    expect(posted[0]?.attachments).toHaveLength(1);
    // The webhook was never used: the deferred response still says it is thinking.
    expect(fake.state.interaction(interaction.id)?.followUpMessageIds).toEqual([]);
  });

  it('answers through the webhook at once, whatever the channel’s own messages wait for', async () => {
    const prompt = 'a busy square';
    const interaction = adaImagines(prompt);
    await deferPublicly(interaction.id, interaction.token);
    // The channel's messages are held back for a minute (a 429 in it): the webhook is not the channel.
    // Last of the file: the channel stays held.
    floor.runtime.channels.holdOff(interaction.channelId, 'post', 60_000);
    floor.runtime.channels.holdOff(interaction.channelId, 'edit', 60_000);
    const expiresAt = interaction.createdAt + 15 * 60_000;
    const started = Date.now();
    await run(imagineJob({ interactionId: interaction.id, token: interaction.token, expiresAt, prompt }));
    expect(Date.now() - started).toBeLessThan(10_000);
    const done = fake.state.interaction(interaction.id);
    expect(fake.state.message(interaction.channelId, done?.originalMessageId ?? '')?.content).toBe(
      copy.imageComment(prompt),
    );
  });
});
