import { GenAiClient } from '@genbot/core/genai';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startDiscordFake, type DiscordFake } from '@genbot/fakes';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY, BOT_TOKEN, captureLogs, startBotOnJobs } from './support/harness.js';

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  await Promise.allSettled(
    cleanups
      .splice(0)
      .reverse()
      .map((cleanup) => cleanup()),
  );
});

async function services(
  options: Parameters<typeof startDiscordFake>[0] = {},
): Promise<{ fake: DiscordFake; emulator: Emulator; client: GenAiClient }> {
  const fake = await startDiscordFake({ botToken: BOT_TOKEN, ...options });
  const emulator = await startEmulator({ apiKey: API_KEY });
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey: API_KEY, retryBaseDelayMs: 5 });
  cleanups.push(
    () => fake.close(),
    () => emulator.close(),
    () => client.close(),
  );
  return { fake, emulator, client };
}

describe('Discord bot start-up', () => {
  it('fails on a bad token with a clear error that does not repeat the token', async () => {
    const { fake, client } = await services();
    const { logger, lines } = captureLogs();
    const badToken = 'e2e-wrong-discord-token-51c0d9';
    const started = startBotOnJobs({
      discord: { token: badToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl },
      client,
      logger,
    });
    const error = await started.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^Discord rejected the bot token \(DISCORD_TOKEN\)/);
    expect((error as Error).message).not.toContain(badToken);
    expect(JSON.stringify(error)).not.toContain(badToken);
    for (const line of lines) expect(line).not.toContain(badToken);
    expect(fake.connectedSessions()).toBe(0);
  });

  it('registers /imagine, /usage and Edit image globally by default when the application ID is known, and stops cleanly', async () => {
    const { fake, client } = await services();
    const { logger } = captureLogs();
    const { bot, close } = await startBotOnJobs({
      discord: { token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl },
      client,
      logger,
    });
    cleanups.push(close);
    expect(bot.userId).toBe(fake.botUser.id);
    expect(fake.state.globalCommands.map((command) => command.name)).toEqual([
      'imagine',
      'usage',
      'Edit image',
      'genbot',
    ]);
    expect(fake.state.guildCommands).toEqual([]);
    await bot.stop();
    await fake.waitFor(() => fake.connectedSessions() === 0);
  });

  it('without the MessageContent intent, warns once and still answers mentions', async () => {
    const { fake, client } = await services({ allowMessageContentIntent: false });
    const { logger, lines } = captureLogs();
    const { close } = await startBotOnJobs({
      discord: { token: fake.botToken, apiUrl: fake.apiUrl },
      client,
      logger,
    });
    cleanups.push(close);
    const warnings = lines.filter((line) => line.includes('MessageContent'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"level":40');
    const channelId = fake.channelId('general');
    const mention = fake.userSays({ user: 'ada', channelId, content: `<@${fake.botUser.id}> still there?` });
    const reply = await fake.waitFor((state) =>
      state
        .messages(channelId)
        .find((message) => message.reference?.messageId === mention.id && message.content.startsWith('You said')),
    );
    expect(reply.content).toContain('ada: still there?');
  });

  it('lets a reply in flight finish when stopped', async () => {
    const { fake, client } = await services();
    const { logger } = captureLogs();
    const { bot, close } = await startBotOnJobs({
      discord: { token: fake.botToken, apiUrl: fake.apiUrl },
      client,
      logger,
    });
    cleanups.push(close);
    const channelId = fake.channelId('general');
    const mention = fake.userSays({
      user: 'ada',
      channelId,
      content: `<@${fake.botUser.id}> a slow one [len:400] [delay:200]`,
    });
    await fake.waitFor((state) =>
      state.messages(channelId).find((message) => message.reference?.messageId === mention.id),
    );
    await bot.stop({ drainMs: 10_000 });
    const reply = fake.state.messages(channelId).find((message) => message.reference?.messageId === mention.id);
    expect(reply?.content.length).toBeGreaterThan(350);
    expect(reply?.content.endsWith('.')).toBe(true);
  });
});

describe('Discord shards (DISCORD_SHARD_COUNT / DISCORD_SHARD_IDS)', () => {
  /** A guild ID whose timestamp bits put it on `shard` of `count`. */
  const guildOnShard = (shard: number, count: number): string =>
    ((1_000_000_000n * BigInt(count) + BigInt(shard)) << 22n).toString();

  it('identifies with the configured shards and answers the guild of its shard', async () => {
    const { fake, client } = await services({ guild: { id: guildOnShard(1, 2) } });
    const { logger } = captureLogs();
    const { bot, close } = await startBotOnJobs({
      discord: { token: fake.botToken, apiUrl: fake.apiUrl, shards: { count: 2, ids: [1] } },
      client,
      logger,
    });
    cleanups.push(close);
    expect(fake.connectedShards().map((shard) => [...shard])).toEqual([[1, 2]]);
    expect(bot.shards).toEqual({ ids: [1], count: 2 });
    const channelId = fake.channelId('general');
    const mention = fake.userSays({ user: 'ada', channelId, content: `<@${fake.botUser.id}> on shard one` });
    await fake.waitFor((state) =>
      state.messages(channelId).find((message) => message.reference?.messageId === mention.id),
    );
  });

  it('starts as many shards as Discord recommends when no count is set', async () => {
    const { fake, client } = await services({ recommendedShards: 2, maxConcurrency: 2 });
    const { logger } = captureLogs();
    const { bot, close } = await startBotOnJobs({
      discord: { token: fake.botToken, apiUrl: fake.apiUrl },
      client,
      logger,
    });
    cleanups.push(close);
    expect(bot.shards).toEqual({ ids: [0, 1], count: 2 });
    expect(fake.connectedShards().map((shard) => [...shard])).toEqual([
      [0, 2],
      [1, 2],
    ]);
  });
});
