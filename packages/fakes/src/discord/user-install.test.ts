import {
  type Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  type Interaction,
  MessageFlags,
  REST,
  Routes,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';
import { readyClient } from './test-client.js';

let discord: DiscordFake | undefined;
let client: Client<true> | undefined;

afterEach(async () => {
  await client?.destroy();
  await discord?.close();
  client = undefined;
  discord = undefined;
});

const PING = { name: 'ping', description: 'Ping' };
const EVERYWHERE = { integration_types: [0, 1], contexts: [0, 1, 2] };

function nextInteraction(on: Client): Promise<Interaction> {
  return new Promise((resolve) => on.once(Events.InteractionCreate, resolve));
}

async function started(): Promise<{ discord: DiscordFake; client: Client<true>; rest: REST }> {
  discord = await startDiscordFake();
  client = await readyClient(discord, { intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages] });
  const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
  return { discord, client, rest };
}

describe('Discord fake: user installs with the real discord.js', () => {
  it('offers only global commands made for user installs in a server the bot is not in', async () => {
    const { discord, rest } = await started();
    const elsewhere = discord.elsewhereChannelId('their-server');
    await rest.put(Routes.applicationGuildCommands(discord.applicationId, discord.guildId), { body: [PING] });
    await rest.put(Routes.applicationCommands(discord.applicationId), {
      body: [{ name: 'server-only', description: 'Server installs only' }],
    });
    for (const name of ['ping', 'server-only']) {
      expect(() => discord.userRunsCommand({ user: 'alice', channelId: elsewhere, name })).toThrow(/not registered/);
    }
  });

  it('sends the interaction with only the person’s install, and refuses the bot the channel', async () => {
    const { discord, client, rest } = await started();
    await rest.put(Routes.applicationCommands(discord.applicationId), { body: [{ ...PING, ...EVERYWHERE }] });
    const elsewhere = discord.elsewhereChannelId('their-server');
    const received = nextInteraction(client);
    discord.userRunsCommand({ user: 'alice', channelId: elsewhere, name: 'ping' });
    const interaction = await received;
    if (!interaction.isChatInputCommand()) throw new Error('expected a chat input command');
    const alice = discord.state.user('alice').id;
    expect(interaction.context).toBe(0);
    expect(interaction.guildId).not.toBe(discord.guildId);
    expect(interaction.guild).toBeNull();
    expect(interaction.authorizingIntegrationOwners).toMatchObject({ guildId: null, userId: alice });
    expect(interaction.memberPermissions?.has('UseExternalApps')).toBe(true);

    await interaction.reply('pong');
    expect(discord.state.messages(elsewhere).map((message) => message.content)).toEqual(['pong']);
    await expect(rest.get(Routes.channelMessages(elsewhere))).rejects.toMatchObject({ code: 50001, status: 403 });
    await expect(rest.post(Routes.channelMessages(elsewhere), { body: { content: 'hi' } })).rejects.toMatchObject({
      code: 50001,
    });
  });

  it('allows 5 follow-ups per interaction, then answers 40094', async () => {
    const { discord, client, rest } = await started();
    await rest.put(Routes.applicationCommands(discord.applicationId), { body: [{ ...PING, ...EVERYWHERE }] });
    const elsewhere = discord.elsewhereChannelId('their-server');
    const received = nextInteraction(client);
    discord.userRunsCommand({ user: 'alice', channelId: elsewhere, name: 'ping' });
    const interaction = await received;
    if (!interaction.isChatInputCommand()) throw new Error('expected a chat input command');
    await interaction.deferReply();
    for (let n = 1; n <= 5; n += 1) await interaction.followUp(`follow-up ${n}`);
    const sixth = interaction.followUp('one too many');
    await expect(sixth).rejects.toBeInstanceOf(DiscordAPIError);
    await expect(sixth).rejects.toMatchObject({ code: 40094 });
    // Editing the original answer is not a follow-up.
    await interaction.editReply('still editable');
    expect(discord.state.messages(elsewhere)).toHaveLength(6);
  });

  it('makes every answer ephemeral where the server withholds Use External Apps', async () => {
    const { discord, client, rest } = await started();
    await rest.put(Routes.applicationCommands(discord.applicationId), { body: [{ ...PING, ...EVERYWHERE }] });
    const elsewhere = discord.elsewhereChannelId('strict-server', { externalApps: false });
    const received = nextInteraction(client);
    discord.userRunsCommand({ user: 'alice', channelId: elsewhere, name: 'ping' });
    const interaction = await received;
    if (!interaction.isChatInputCommand()) throw new Error('expected a chat input command');
    expect(interaction.memberPermissions?.has('UseExternalApps')).toBe(false);
    await interaction.deferReply();
    await interaction.editReply('pong');
    await interaction.followUp('more');
    const flags = discord.state.messages(elsewhere).map((message) => message.flags & MessageFlags.Ephemeral);
    expect(flags).toEqual([MessageFlags.Ephemeral, MessageFlags.Ephemeral]);
  });
});
