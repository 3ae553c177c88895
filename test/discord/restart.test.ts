import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copy } from '@genbot/core/copy';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startDiscordFake, type DiscordFake, type DiscordInteraction } from '@genbot/fakes';
import { openStore } from '@genbot/store';
import { eventually } from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGenbot, type GenbotProcess } from '@genbot/test-servers/genbot';
import { API_KEY, BOT_TOKEN, chatRequests, expectedReply } from './support/harness.js';
import { answered, labelsOf, press, resultOf } from './support/results.js';

/**
 * The restart promise, with the bot as a real process: killed with SIGKILL
 * mid-job (nothing runs on the way out) and started again on the same SQLite
 * file, it finishes the job once. The Discord fake and the emulator live in
 * the test, so they outlast the bot.
 */
let fake: DiscordFake;
let emulator: Emulator;
const database = path.join(mkdtempSync(path.join(tmpdir(), 'genbot-restart-')), 'genbot.db');
const processes: GenbotProcess[] = [];

beforeAll(async () => {
  fake = await startDiscordFake({ botToken: BOT_TOKEN });
  emulator = await startEmulator({ apiKey: API_KEY });
});

afterAll(async () => {
  await Promise.allSettled(processes.map((genbot) => genbot.stop(5_000)));
  await Promise.allSettled([emulator?.close(), fake?.close()]);
});

async function startBot(): Promise<GenbotProcess> {
  const sessions = fake.connectedSessions();
  const genbot = spawnGenbot(['discord'], {
    DISCORD_TOKEN: fake.botToken,
    DISCORD_APPLICATION_ID: fake.applicationId,
    DISCORD_API_URL: fake.apiUrl,
    GENAI_BASE_URL: emulator.url,
    GENAI_API_KEY: API_KEY,
    DATABASE_URL: `sqlite:${database}`,
  });
  processes.push(genbot);
  // The summary line comes once the client is ready (its guild and channels known) and the worker runs:
  // a mention sent before that would be dropped by discord.js, not by the bot.
  await genbot.waitForLine(/^Discord: /, 30_000);
  await fake.waitFor(() => (fake.connectedSessions() > sessions ? true : undefined), 30_000);
  await fake.waitFor(() =>
    fake.state.globalCommands.some((command) => command.name === 'imagine') ? true : undefined,
  );
  return genbot;
}

async function kill(genbot: GenbotProcess): Promise<void> {
  const sessions = fake.connectedSessions();
  genbot.child.kill('SIGKILL');
  expect(await genbot.exited).toEqual({ code: null, signal: 'SIGKILL' });
  await fake.waitFor(() => (fake.connectedSessions() < sessions ? true : undefined), 10_000);
}

function original(interaction: DiscordInteraction): string | undefined {
  const current = fake.state.interaction(interaction.id);
  return current?.originalMessageId == null
    ? undefined
    : fake.state.message(current.channelId, current.originalMessageId)?.content;
}

describe('Discord: a job caught by a crash', () => {
  it('finishes an /imagine after SIGKILL and a new start, with its images posted once', async () => {
    const first = await startBot();
    const prompt = 'a lighthouse that takes its time [fault:slow=6000]';
    const started = fake.userRunsCommand({
      user: 'ada',
      channelId: fake.channelId('general'),
      name: 'imagine',
      options: { prompt },
    });
    // Mid-job: the progress line is up and the service is still working on the images.
    await fake.waitFor(() => (original(started) === copy.imagining(prompt) ? true : undefined), 10_000);
    await kill(first);

    const second = await startBot();
    // The result takes the progress line's place: the images, the prompt and the buttons.
    const result = await resultOf(fake, started, 30_000);
    // Stopped gracefully, it has nothing left to do: anything posted twice would be here now.
    await second.stop(10_000);
    expect(fake.state.interaction(started.id)?.followUpMessageIds).toEqual([]);
    expect(result.content).toBe(copy.imageComment(prompt));
    expect(result.attachments).toHaveLength(1);
    expect(labelsOf(result)).toEqual([copy.buttonReroll, copy.buttonVary(), copy.buttonEdit()]);
  });

  it('takes a press on a result made before SIGKILL on the new process, from the stored record', async () => {
    const first = await startBot();
    const started = fake.userRunsCommand({
      user: 'ada',
      channelId: fake.channelId('general'),
      name: 'imagine',
      options: { prompt: 'a harbour crane' },
    });
    const result = await resultOf(fake, started, 15_000);
    // The worker records the image's version right after the upload: killed before that, nothing would point at it.
    const store = await openStore(`sqlite:${database}`);
    try {
      await eventually(async () =>
        (await store.versions.byMessage('discord', result.channelId, result.id)).length > 0 ? true : undefined,
      );
    } finally {
      await store.close();
    }
    await kill(first);

    const second = await startBot();
    const vary = press(fake, 'bob', result, copy.buttonVary());
    expect((await answered(fake, vary)).responseType).toBe(5);
    const varied = await resultOf(fake, vary, 30_000);
    expect(varied.content).toBe(copy.variedComment(2, 1));
    expect(varied.reference?.messageId).toBe(result.id);
    await second.stop(10_000);
  });

  it('finishes a mention’s reply after SIGKILL and a new start, in the one reply it began', async () => {
    const first = await startBot();
    const channelId = fake.channelId('general');
    const asked = chatRequests(emulator).length;
    const mention = fake.userSays({
      user: 'ada',
      channelId,
      content: `<@${fake.botUser.id}> tell me a story [len:800] [delay:250]`,
    });
    const replies = () =>
      fake.state
        .messages(channelId)
        .filter((message) => message.author.id === fake.botUser.id && message.reference?.messageId === mention.id);
    // Edited once at least: the post is recorded by then (the one window the contract leaves is the instant between
    // a post and its record).
    await fake.waitFor(() => ((replies()[0]?.history.length ?? 0) > 0 ? true : undefined), 15_000);
    await kill(first);

    const second = await startBot();
    await fake.waitFor(() => (chatRequests(emulator).length > asked + 1 ? true : undefined), 15_000);
    const request = chatRequests(emulator).at(-1);
    if (request === undefined) throw new Error('no chat request after the restart');
    const expected = await expectedReply(emulator, request);
    await fake.waitFor(() => (replies()[0]?.content === expected ? true : undefined), 60_000);
    await second.stop(10_000);
    expect(replies()).toHaveLength(1);
  });
});
