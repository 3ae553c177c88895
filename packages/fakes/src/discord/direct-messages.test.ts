import {
  ChannelType,
  type Client,
  Events,
  GatewayIntentBits,
  type Interaction,
  type Message,
  Partials,
  REST,
  Routes,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';
import { readyClient } from './test-client.js';

const DM_INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages];

let discord: DiscordFake | undefined;
let client: Client<true> | undefined;

afterEach(async () => {
  await client?.destroy();
  await discord?.close();
  client = undefined;
  discord = undefined;
});

function next<T>(on: Client, event: Events.MessageCreate | Events.InteractionCreate): Promise<T> {
  return new Promise((resolve) => on.once(event, (value: unknown) => resolve(value as T)));
}

describe('Discord fake: direct messages with the real discord.js', () => {
  it('delivers a DM to a client with DirectMessages and Partials.Channel, content without MessageContent', async () => {
    discord = await startDiscordFake();
    client = await readyClient(discord, { intents: DM_INTENTS, partials: [Partials.Channel] });
    const dm = discord.dmChannelId('alice');
    const received = next<Message>(client, Events.MessageCreate);
    const sent = discord.userSays({ user: 'alice', channelId: dm, content: 'hello there' });
    const message = await received;
    expect(message).toMatchObject({ id: sent.id, content: 'hello there', guildId: null, channelId: dm });
    expect(message.channel.type).toBe(ChannelType.DM);
    expect(message.author.username).toBe('alice');

    // The reply goes to the DM channel, a reply to the message; history is read over REST.
    await message.reply('hi alice');
    const history = await message.channel.messages.fetch({ limit: 20 });
    expect([...history.values()].map((read) => read.content)).toEqual(['hi alice', 'hello there']);
    expect(discord.state.messages(dm).map((stored) => stored.reference?.messageId ?? null)).toEqual([null, sent.id]);
  });

  it('delivers no DM without the DirectMessages intent, and guild messages still', async () => {
    discord = await startDiscordFake();
    client = await readyClient(discord, {
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
      partials: [Partials.Channel],
    });
    const seen: string[] = [];
    client.on(Events.MessageCreate, (message) => seen.push(message.content));
    const guildMessage = next<Message>(client, Events.MessageCreate);
    discord.userSays({ user: 'alice', channelId: discord.dmChannelId('alice'), content: 'a secret' });
    discord.userSays({
      user: 'alice',
      channelId: discord.channelId('general'),
      content: `<@${discord.botUser.id}> hi`,
    });
    await guildMessage;
    expect(seen).toEqual([`<@${discord.botUser.id}> hi`]);
  });

  it('keeps a DM to its person, and answers REST reads of the channel as a DM', async () => {
    discord = await startDiscordFake();
    const dm = discord.dmChannelId('alice');
    expect(discord.dmChannelId('alice')).toBe(dm);
    expect(() => discord?.userSays({ user: 'bob', channelId: dm, content: 'hi' })).toThrow(/not in the DM/);
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    expect(await rest.get(Routes.channel(dm))).toMatchObject({
      id: dm,
      type: 1,
      recipients: [{ id: discord.state.user('alice').id, username: 'alice' }],
    });
    expect(await rest.get(Routes.channel(dm))).not.toHaveProperty('guild_id');
  });

  it('opens the DM a bot writes to a person in (user.send): their one DM, unknown people refused', async () => {
    discord = await startDiscordFake();
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    const alice = discord.state.user('alice').id;
    expect(await rest.post(Routes.userChannels(), { body: { recipient_id: alice } })).toMatchObject({
      id: discord.dmChannelId('alice'),
      type: 1,
    });
    await expect(rest.post(Routes.userChannels(), { body: { recipient_id: '1' } })).rejects.toThrow(/Unknown/);
  });

  it('dates messages by its clock: advanced an hour, the next message is an hour later', async () => {
    discord = await startDiscordFake();
    const dm = discord.dmChannelId('alice');
    const first = discord.userSays({ user: 'alice', channelId: dm, content: 'one' });
    discord.advanceClock(60 * 60_000);
    const second = discord.userSays({ user: 'alice', channelId: dm, content: 'two' });
    const apart = Date.parse(second.timestamp) - Date.parse(first.timestamp);
    expect(apart).toBeGreaterThanOrEqual(60 * 60_000);
    expect(apart).toBeLessThan(61 * 60_000);
    expect(BigInt(second.id)).toBeGreaterThan(BigInt(first.id));
  });

  it('runs a global command in the DM with the person as `user`, no guild or member, context 1', async () => {
    discord = await startDiscordFake();
    client = await readyClient(discord, { intents: DM_INTENTS, partials: [Partials.Channel] });
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    const ping = { name: 'ping', description: 'Ping' };
    await rest.put(Routes.applicationGuildCommands(discord.applicationId, discord.guildId), { body: [ping] });
    const dm = discord.dmChannelId('alice');
    // A guild's commands are not offered in a DM.
    expect(() => discord?.userRunsCommand({ user: 'alice', channelId: dm, name: 'ping' })).toThrow(/not registered/);
    await rest.put(Routes.applicationCommands(discord.applicationId), {
      body: [ping, { name: 'guild-only', description: 'Not in DMs', contexts: [0] }],
    });
    expect(() => discord?.userRunsCommand({ user: 'alice', channelId: dm, name: 'guild-only' })).toThrow(
      /not registered/,
    );

    const received = next<Interaction>(client, Events.InteractionCreate);
    discord.userRunsCommand({ user: 'alice', channelId: dm, name: 'ping' });
    const interaction = await received;
    if (!interaction.isChatInputCommand()) throw new Error('expected a chat input command');
    expect(interaction).toMatchObject({ guildId: null, member: null, channelId: dm, context: 1 });
    expect(interaction.user.username).toBe('alice');
    expect(interaction.channel?.type).toBe(ChannelType.DM);
    expect(interaction.authorizingIntegrationOwners).toMatchObject({ guildId: '0', userId: null });
    await interaction.reply('pong');
    expect(discord.state.messages(dm).at(-1)?.content).toBe('pong');
  });
});
