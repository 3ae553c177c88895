import { copy } from '@genbot/core/copy';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { type DiscordFake, type DiscordMessage, type SlackFake, startDiscordFake, startSlackFake } from '@genbot/fakes';
import {
  type Engines,
  enginesInstalled,
  type GenbotProcess,
  outsideOf,
  PROCESSES,
  processNamed,
  startEngines,
} from '@genbot/test-servers/genbot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../discord/support/results.js';

/**
 * Discord spread over processes as compose.yaml runs it: two gateway shard
 * processes (DISCORD_SHARD_COUNT=2, DISCORD_SHARD_IDS=0 and 1) that only
 * parse, admit, record and queue, and a `genbot worker` that answers over REST,
 * on Redis and PostgreSQL. Whichever shard owns the guild, each event is
 * answered once.
 */
const installed = enginesInstalled();

const API_KEY = 'shards-genai-key-4e1c';
const BOT_TOKEN = 'shards-discord-token-7f20';
const SHARDS = PROCESSES.filter((process) => process.role === 'discord');

let engines: Engines;
let emulator: Emulator;
/** The worker holds the Slack token too, as in compose.yaml. */
let slack: SlackFake;
let fake: DiscordFake | undefined;
const processes: GenbotProcess[] = [];

beforeAll(async () => {
  if (!installed) return;
  engines = await startEngines();
  emulator = await startEmulator({ apiKey: API_KEY });
  slack = await startSlackFake({ botToken: 'xoxb-shards', signingSecret: 'shards-secret' });
}, 60_000);

afterEach(async () => {
  await Promise.allSettled(processes.splice(0).map((genbot) => genbot.stop(5_000)));
  await fake?.close();
  fake = undefined;
});

afterAll(async () => {
  await Promise.allSettled([slack?.close(), emulator?.close()]);
  await engines?.close();
});

/** A guild ID whose timestamp bits put it on `shard` of `count`: `(id >> 22) % count === shard`. */
function guildOnShard(shard: number, count: number): string {
  return ((1_000_000_000n * BigInt(count) + BigInt(shard)) << 22n).toString();
}

/** The two shard processes and a worker of the topology, each up and both shards identified. */
async function startDeployment(discord: DiscordFake): Promise<void> {
  const outside = outsideOf({ baseUrl: emulator.url, apiKey: API_KEY }, slack, discord);
  await Promise.all(
    [...SHARDS, processNamed('worker-1')].map(async (process) => {
      processes.push(await engines.start(process, outside));
    }),
  );
  await discord.waitFor(() => (discord.connectedSessions() === 2 ? true : undefined), 10_000);
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
