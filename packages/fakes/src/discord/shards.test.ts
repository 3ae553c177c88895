import { type Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordFake, startDiscordFake } from './index.js';
import { readyClient } from './test-client.js';

let discord: DiscordFake | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.destroy()));
  await discord?.close();
  discord = undefined;
});

/** A guild ID whose timestamp bits put it on `shard` of `count`: `(id >> 22) % count === shard`. */
function guildIdOnShard(shard: number, count: number): string {
  return ((1_000_000_000n * BigInt(count) + BigInt(shard)) << 22n).toString();
}

/** A client running one shard of two, as a shard process started with DISCORD_SHARD_IDS=id does. */
async function shardClient(fake: DiscordFake, id: number): Promise<{ client: Client; messages: Message[] }> {
  const client = await readyClient(fake, { shards: [id], shardCount: 2 });
  clients.push(client);
  const messages: Message[] = [];
  client.on(Events.MessageCreate, (message) => messages.push(message));
  return { client, messages };
}

describe('the Discord fake with several shards, with the real discord.js', () => {
  it('advises the configured shard count on GET /gateway/bot', async () => {
    discord = await startDiscordFake({ recommendedShards: 3, maxConcurrency: 2 });
    const response = await fetch(`${discord.apiUrl}/v10/gateway/bot`, {
      headers: { authorization: `Bot ${discord.botToken}` },
    });
    expect(await response.json()).toMatchObject({
      url: discord.gatewayUrl,
      shards: 3,
      session_start_limit: { max_concurrency: 2 },
    });
  });

  it.each([0, 1])('sends the events of a guild on shard %i to that shard alone', async (owner) => {
    discord = await startDiscordFake({ guild: { id: guildIdOnShard(owner, 2) } });
    expect(discord.guildShard(2)).toBe(owner);
    const shards = [await shardClient(discord, 0), await shardClient(discord, 1)];
    expect(discord.connectedShards().map((shard) => [...shard])).toEqual([
      [0, 2],
      [1, 2],
    ]);
    const mine = shards[owner];
    const other = shards[1 - owner];
    if (mine === undefined || other === undefined) throw new Error('two shards expected');
    // READY lists the guild on its own shard only, so only that client has it.
    expect(mine.client.guilds.cache.has(discord.guildId)).toBe(true);
    expect(other.client.guilds.cache.size).toBe(0);

    discord.userSays({ user: 'alice', channelId: discord.channelId('general'), content: 'to the owning shard' });
    await discord.waitFor(() => mine.messages.length === 1);
    expect(mine.messages[0]?.guild?.shardId).toBe(owner);
    // The other client would have had the first by now: the fake writes to every session in one pass.
    discord.userSays({ user: 'alice', channelId: discord.channelId('general'), content: 'second' });
    await discord.waitFor(() => mine.messages.length === 2);
    expect(other.messages).toEqual([]);
  });

  it("starts as many shards as GET /gateway/bot advises with shards: 'auto'", async () => {
    discord = await startDiscordFake({ recommendedShards: 2, maxConcurrency: 2, guild: { id: guildIdOnShard(1, 2) } });
    const client = await readyClient(discord, { shards: 'auto' });
    clients.push(client);
    expect(client.ws.shards.size).toBe(2);
    expect(client.guilds.cache.get(discord.guildId)?.shardId).toBe(1);
    const received = new Promise<Message>((resolve) => client.once(Events.MessageCreate, resolve));
    discord.userSays({ user: 'alice', channelId: discord.channelId('general'), content: 'hello' });
    expect((await received).guild?.shardId).toBe(1);
  });

  it('closes with 4010 an IDENTIFY for a shard outside its count', async () => {
    discord = await startDiscordFake();
    const fake = discord;
    const { WebSocket } = await import('ws');
    const socket = new WebSocket(`${fake.gatewayUrl}?v=10&encoding=json`);
    socket.on('message', () =>
      socket.send(
        JSON.stringify({
          op: 2,
          d: { token: fake.botToken, intents: GatewayIntentBits.Guilds, properties: {}, shard: [2, 2] },
        }),
      ),
    );
    expect(await new Promise((resolve) => socket.on('close', (code) => resolve(code)))).toBe(4010);
  });
});
