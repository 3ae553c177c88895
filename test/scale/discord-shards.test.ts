import { copy } from '@genbot/core/copy';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startDiscordFake, type DiscordFake, type DiscordMessage } from '@genbot/fakes';
import {
  findPostgresBin,
  findRedisServer,
  installedOrSkipped,
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  REDIS_INSTALL_HINT,
  type RedisServer,
  startPostgres,
  startRedis,
} from '@genbot/test-servers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type GenbotProcess, spawnGenbot } from '../launcher/genbot-process.js';
import { resultOf } from '../discord/support/results.js';
import { PROCESSES } from './topology.js';

/**
 * Discord spread over processes as compose.yaml runs it: two gateway shard
 * processes (DISCORD_SHARD_COUNT=2, DISCORD_SHARD_IDS=0 and 1) that only
 * parse, admit, record and queue, and a `genbot worker` that answers over REST,
 * on Redis and PostgreSQL. Whichever shard owns the guild, each event is
 * answered once.
 */
const installed =
  installedOrSkipped({ name: 'Redis', found: findRedisServer() !== undefined, install: REDIS_INSTALL_HINT }) &&
  installedOrSkipped({ name: 'PostgreSQL', found: findPostgresBin() !== undefined, install: POSTGRES_INSTALL_HINT });

const API_KEY = 'shards-genai-key-4e1c';
const BOT_TOKEN = 'shards-discord-token-7f20';
const SHARDS = PROCESSES.filter((process) => process.role === 'discord');

let redis: RedisServer;
let postgres: PostgresServer;
let emulator: Emulator;
let fake: DiscordFake | undefined;
const processes: GenbotProcess[] = [];

beforeAll(async () => {
  if (!installed) return;
  redis = await startRedis();
  postgres = await startPostgres();
  emulator = await startEmulator({ apiKey: API_KEY });
}, 60_000);

afterEach(async () => {
  await Promise.allSettled(processes.splice(0).map((genbot) => genbot.stop(5_000)));
  await fake?.close();
  fake = undefined;
});

afterAll(async () => {
  await Promise.allSettled([emulator?.close(), postgres?.close(), redis?.close()]);
});

/** A guild ID whose timestamp bits put it on `shard` of `count`: `(id >> 22) % count === shard`. */
function guildOnShard(shard: number, count: number): string {
  return ((1_000_000_000n * BigInt(count) + BigInt(shard)) << 22n).toString();
}

function start(discord: DiscordFake, args: readonly string[], fixed: Readonly<Record<string, string>>): GenbotProcess {
  const genbot = spawnGenbot(args, {
    ...fixed,
    REDIS_URL: redis.url,
    DATABASE_URL: postgres.url,
    GENAI_BASE_URL: emulator.url,
    GENAI_API_KEY: API_KEY,
    DISCORD_TOKEN: discord.botToken,
    DISCORD_APPLICATION_ID: discord.applicationId,
    DISCORD_API_URL: discord.apiUrl,
  });
  processes.push(genbot);
  return genbot;
}

/** The two shard processes and a worker, each up (its summary printed) and both shards identified. */
async function startDeployment(discord: DiscordFake): Promise<{ shards: GenbotProcess[]; worker: GenbotProcess }> {
  const shards = SHARDS.map((process) => start(discord, process.args, process.fixed));
  const worker = start(discord, ['worker'], {});
  await Promise.all([
    ...shards.map((genbot) => genbot.waitForLine(/^Discord: gateway connected as user \d+; shards \d of 2;/, 60_000)),
    worker.waitForLine(/^Worker: /, 60_000),
  ]);
  await discord.waitFor(() => (discord.connectedSessions() === 2 ? true : undefined), 10_000);
  return { shards, worker };
}

function botMessages(discord: DiscordFake, channelId: string): DiscordMessage[] {
  return discord.state.messages(channelId).filter((message) => message.author.id === discord.botUser.id);
}

describe.runIf(installed)('Discord shards in two processes and a worker, on Redis and PostgreSQL', () => {
  it.each([0, 1])(
    'answers each event of a guild on shard %i once',
    async (owner) => {
      fake = await startDiscordFake({ botToken: BOT_TOKEN, guild: { id: guildOnShard(owner, 2) } });
      const discord = fake;
      await startDeployment(discord);
      expect(discord.guildShard(2)).toBe(owner);
      expect(
        discord
          .connectedShards()
          .map(([id, count]) => `${id}/${count}`)
          .sort(),
      ).toEqual(['0/2', '1/2']);

      const channelId = discord.channelId('general');
      const mention = discord.userSays({ user: 'ada', channelId, content: `<@${discord.botUser.id}> hello shards` });
      const prompt = `a lighthouse on shard ${owner}`;
      const imagine = discord.userRunsCommand({ user: 'bob', channelId, name: 'imagine', options: { prompt } });
      // Delivered again with the same ids, as a gateway may after a resume: still one job each.
      discord.redeliver({ channelId, messageId: mention.id });

      const replies = () =>
        botMessages(discord, channelId).filter((message) => message.reference?.messageId === mention.id);
      await discord.waitFor(() => (replies()[0]?.content.includes('hello shards') ? true : undefined), 30_000);
      // The result takes the progress line's place: the images, the prompt and the buttons.
      const result = await resultOf(discord, imagine, 30_000);
      expect(result.content).toBe(copy.imageComment(prompt));

      // Stopped, nothing is left to run: a second answer would be here now.
      await Promise.all(processes.splice(0).map((genbot) => genbot.stop(15_000)));
      expect(replies()).toHaveLength(1);
      // Nothing followed up: the images were posted once, in the result.
      expect(discord.state.interaction(imagine.id)?.followUpMessageIds).toEqual([]);
      expect(result.attachments).toHaveLength(1);
    },
    120_000,
  );
});
