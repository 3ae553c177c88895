import { copy } from '@genbot/core/copy';
import { registerCommands } from '@genbot/discord-bot';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startDiscordFake, type DiscordFake, type DiscordInteraction } from '@genbot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, BOT_TOKEN, captureLogs } from './support/harness.js';
import { fromStorage, runJob, TestWorker } from './support/test-worker.js';

/**
 * No bot is connected here: nothing holds a gateway session. A job, as
 * ingress would have stored it (JSON), is all a worker gets.
 */
let fake: DiscordFake;
let emulator: Emulator;
let worker: TestWorker;

beforeAll(async () => {
  fake = await startDiscordFake({ botToken: BOT_TOKEN });
  emulator = await startEmulator({ apiKey: API_KEY });
  const { logger } = captureLogs();
  worker = await TestWorker.start({ fake, emulator, logger });
  await registerCommands({
    discord: { token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl },
    guildId: fake.guildId,
    logger,
  });
});

afterAll(async () => {
  await worker?.close();
  await Promise.allSettled([emulator?.close(), fake?.close()]);
});

function imagineJobJson(options: { interactionId: string; token: string; expiresAt: number; prompt: string }): string {
  const channelId = fake.channelId('general');
  const userId = fake.state.user('ada').id;
  return JSON.stringify({
    id: `dc-int-${options.interactionId}`,
    platform: 'discord',
    workspaceId: fake.guildId,
    channelId,
    userId,
    input: { kind: 'imagine', imagine: { target: { channelId }, prompt: options.prompt, userId } },
    interaction: { token: options.token, expiresAt: new Date(options.expiresAt).toISOString() },
  });
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
    const stored = JSON.stringify({
      id: `dc-msg-${mention.id}`,
      platform: 'discord',
      workspaceId: fake.guildId,
      channelId,
      threadId: mention.id,
      userId,
      input: { kind: 'mention', mention: { target: { channelId, threadId: mention.id }, trigger, userId } },
    });
    await runJob(fromStorage(stored), worker.surfaces, worker.deps);
    const replies = fake.state
      .messages(channelId)
      .filter((message) => message.author.id === fake.botUser.id && message.reference?.messageId === mention.id);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.content).not.toBe('');
  });

  it('reads a channel it has not seen once, however many of its jobs start together', async () => {
    const channelId = fake.state.addChannel('lobby').id;
    const userId = fake.state.user('ada').id;
    const jobs = ['one', 'two', 'three'].map((word) => {
      const mention = fake.userSays({ user: 'ada', channelId, content: `<@${fake.botUser.id}> ${word}` });
      const trigger = {
        id: mention.id,
        author: { id: userId, name: 'ada', isBot: false, isSelf: false },
        text: word,
        attachments: [],
      };
      const target = { channelId, threadId: mention.id };
      return fromStorage(
        JSON.stringify({
          id: `dc-msg-${mention.id}`,
          platform: 'discord',
          workspaceId: fake.guildId,
          channelId,
          threadId: mention.id,
          userId,
          input: { kind: 'mention', mention: { target, trigger, history: [trigger], userId } },
        }),
      );
    });
    const before = fake.state.botRequests.length;
    await Promise.all(jobs.map((job) => runJob(job, worker.surfaces, worker.deps)));
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
    await runJob(
      fromStorage(imagineJobJson({ interactionId: interaction.id, token: interaction.token, expiresAt, prompt })),
      worker.surfaces,
      worker.deps,
    );
    const done = fake.state.interaction(interaction.id);
    const original = fake.state.message(interaction.channelId, done?.originalMessageId ?? '');
    expect(original?.content).toBe(copy.imagineDone(prompt, { uploaded: 1, tooLarge: 0 }));
    expect(done?.followUpMessageIds).toHaveLength(1);
  });

  it('past the token’s life, answers with plain channel messages', async () => {
    const prompt = 'a late answer';
    const channelId = fake.channelId('general');
    const interaction = adaImagines(prompt);
    await deferPublicly(interaction.id, interaction.token);
    const before = fake.state.messages(channelId).length;
    await runJob(
      fromStorage(
        imagineJobJson({ interactionId: interaction.id, token: interaction.token, expiresAt: Date.now() - 1, prompt }),
      ),
      worker.surfaces,
      worker.deps,
    );
    const posted = fake.state.messages(channelId).slice(before);
    expect(posted.map((message) => message.content)).toEqual([
      copy.imagineDone(prompt, { uploaded: 1, tooLarge: 0 }),
      copy.imageComment(prompt),
    ]);
    expect(posted.map((message) => message.interaction)).toEqual([null, null]);
    expect(posted[1]?.attachments).toHaveLength(1);
    // The webhook was never used: the deferred response still says it is thinking.
    expect(fake.state.interaction(interaction.id)?.followUpMessageIds).toEqual([]);
  });

  it('waits for the defer when the worker reaches the webhook before ingress has answered', async () => {
    const prompt = 'an early bird';
    const interaction = adaImagines(prompt);
    const expiresAt = interaction.createdAt + 15 * 60_000;
    const job = fromStorage(
      imagineJobJson({ interactionId: interaction.id, token: interaction.token, expiresAt, prompt }),
    );
    const refusedBefore = fake.state.refusals.filter((refusal) => refusal.code === 10015).length;
    const running = runJob(job, worker.surfaces, worker.deps);
    // Ingress answers only once the worker has found the webhook not there yet (Unknown Webhook).
    await fake.waitFor(() =>
      fake.state.refusals.filter((refusal) => refusal.code === 10015).length > refusedBefore ? true : undefined,
    );
    await deferPublicly(interaction.id, interaction.token);
    await running;
    const done = fake.state.interaction(interaction.id);
    expect(fake.state.message(interaction.channelId, done?.originalMessageId ?? '')?.content).toBe(
      copy.imagineDone(prompt, { uploaded: 1, tooLarge: 0 }),
    );
  });

  it('answers through the webhook at once, whatever the channel’s own messages wait for', async () => {
    const prompt = 'a busy square';
    const interaction = adaImagines(prompt);
    await deferPublicly(interaction.id, interaction.token);
    // The channel's messages are held back for a minute (a 429 in it): the webhook is not the channel.
    // Last of the file: the channel stays held.
    worker.deps.channels.holdOff(interaction.channelId, 'post', 60_000);
    worker.deps.channels.holdOff(interaction.channelId, 'edit', 60_000);
    const expiresAt = interaction.createdAt + 15 * 60_000;
    const started = Date.now();
    await runJob(
      fromStorage(imagineJobJson({ interactionId: interaction.id, token: interaction.token, expiresAt, prompt })),
      worker.surfaces,
      worker.deps,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const done = fake.state.interaction(interaction.id);
    expect(fake.state.message(interaction.channelId, done?.originalMessageId ?? '')?.content).toBe(
      copy.imagineDone(prompt, { uploaded: 1, tooLarge: 0 }),
    );
  });
});
