import { Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';
import { readyClient } from './test-client.js';

let discord: DiscordFake | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.destroy();
  await discord?.close();
  client = undefined;
  discord = undefined;
});

function nextMessage(target: Client): Promise<Message> {
  return new Promise((resolve) => target.once(Events.MessageCreate, resolve));
}

describe('Discord fake gateway with the real discord.js', () => {
  it('logs in and reaches clientReady with the guild and its channels, without the 15 s guild wait', async () => {
    discord = await startDiscordFake({ guild: { channels: ['general', 'images'] } });
    // Ready only once the guild arrives: a fake that left discord.js waiting would time the test out.
    const ready = await readyClient(discord, { waitGuildTimeout: 600_000 });
    client = ready;
    expect(ready.user.id).toBe(discord.botUser.id);
    expect(client.application?.id).toBe(discord.applicationId);
    const guild = client.guilds.cache.get(discord.guildId);
    expect(guild?.available).toBe(true);
    expect(guild?.channels.cache.map((channel) => channel.name).sort()).toEqual(['general', 'images']);
    expect(guild?.roles.everyone.id).toBe(discord.guildId);
  });

  it('heartbeats on a short interval and gets ACKs', async () => {
    discord = await startDiscordFake({ heartbeatIntervalMs: 100 });
    let acks = 0;
    client = await readyClient(discord);
    client.on(Events.Debug, (line) => {
      if (line.includes('Heartbeat acknowledged')) acks += 1;
    });
    await discord.waitFor(() => acks >= 3, 3000);
    // An unacknowledged beat would have made the client reconnect as a zombie: still one session.
    expect(discord.connectedSessions()).toBe(1);
    expect(client.ws.ping).toBeGreaterThanOrEqual(0);
  });

  it('resumes after close code 4000 and replays what was missed, then keeps delivering', async () => {
    discord = await startDiscordFake();
    client = await readyClient(discord);
    const resumed = new Promise<void>((resolve) => client?.on(Events.ShardResume, () => resolve()));
    const debug: string[] = [];
    client.on(Events.Debug, (line) => debug.push(line));
    const general = discord.channelId('general');
    discord.dropConnection(4000);
    // Sent while the client is away: RESUME must replay it.
    const missed = nextMessage(client);
    discord.userSays({ user: 'alice', channelId: general, content: 'while you were away' });
    await resumed;
    expect((await missed).content).toBe('while you were away');
    // @discordjs/ws counts RESUMED itself among the replayed dispatches: 1 missed + RESUMED.
    expect(debug).toContain('[WS => Shard 0] Resumed and replayed 2 events');
    const later = nextMessage(client);
    discord.userSays({ user: 'alice', channelId: general, content: 'after the resume' });
    expect((await later).content).toBe('after the resume');
  });

  it('rejects a bad token (401 on /gateway/bot)', async () => {
    discord = await startDiscordFake();
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl } });
    await expect(client.login('not-the-token')).rejects.toThrow(/token/i);
  });

  it('closes with 4004 when IDENTIFY carries a bad token', async () => {
    discord = await startDiscordFake();
    const closed = await gatewayClose(discord, { op: 2, d: { token: 'wrong', intents: 513, properties: {} } });
    expect(closed).toBe(4004);
  });

  it('closes with 4014 when MessageContent is asked for but not allowed, which fails the login', async () => {
    discord = await startDiscordFake({ allowMessageContentIntent: false });
    const closed = await gatewayClose(discord, {
      op: 2,
      d: { token: discord.botToken, intents: 1 << 15, properties: {} },
    });
    expect(closed).toBe(4014);
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.MessageContent],
      rest: { api: discord.apiUrl },
    });
    await expect(client.login(discord.botToken)).rejects.toThrow(/disallowed intents/i);
  });

  it('without MessageContent blanks content except for messages that mention the bot', async () => {
    discord = await startDiscordFake();
    client = await readyClient(discord, { intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages] });
    const general = discord.channelId('general');
    const first = nextMessage(client);
    discord.userSays({
      user: 'bob',
      channelId: general,
      content: 'secret',
      attachments: [{ filename: 'a.txt', bytes: Buffer.from('x') }],
    });
    const plain = await first;
    expect(plain.content).toBe('');
    expect(plain.attachments.size).toBe(0);
    const second = nextMessage(client);
    discord.userSays({ user: 'bob', channelId: general, content: `<@${discord.botUser.id}> hello` });
    const mention = await second;
    expect(mention.content).toBe(`<@${discord.botUser.id}> hello`);
    expect(mention.mentions.users.has(discord.botUser.id)).toBe(true);
  });
});

/** Opens a raw gateway connection, sends one payload after HELLO, and returns the close code. */
async function gatewayClose(discord: DiscordFake, payload: unknown): Promise<number> {
  const { WebSocket } = await import('ws');
  const socket = new WebSocket(`${discord.gatewayUrl}?v=10&encoding=json`);
  socket.on('message', () => socket.send(JSON.stringify(payload)));
  return new Promise((resolve) => socket.on('close', (code) => resolve(code)));
}
