import {
  ApplicationCommandOptionType,
  Events,
  REST,
  Routes,
  type ChatInputApplicationCommandData,
  type ChatInputCommandInteraction,
  type Client,
  type Interaction,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';
import { readyClient } from './test-client.js';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const imagine: ChatInputApplicationCommandData = {
  name: 'imagine',
  description: 'Generate an image',
  options: [
    { type: ApplicationCommandOptionType.String, name: 'prompt', description: 'What to draw', required: true },
    {
      type: ApplicationCommandOptionType.String,
      name: 'aspect_ratio',
      description: 'Shape',
      choices: [
        { name: '1:1', value: '1:1' },
        { name: '16:9', value: '16:9' },
      ],
    },
  ],
};

let discord: DiscordFake | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.destroy();
  await discord?.close();
  client = undefined;
  discord = undefined;
});

function nextCommand(target: Client): Promise<ChatInputCommandInteraction> {
  return new Promise((resolve) => {
    const listener = (interaction: Interaction): void => {
      if (!interaction.isChatInputCommand()) return;
      target.off(Events.InteractionCreate, listener);
      resolve(interaction);
    };
    target.on(Events.InteractionCreate, listener);
  });
}

describe('Discord fake interactions and commands with the real discord.js', () => {
  it('registers global commands with application.commands.set and guild ones with REST', async () => {
    discord = await startDiscordFake();
    const ready = await readyClient(discord);
    client = ready;
    const [registered] = (await ready.application.commands.set([imagine])).values();
    expect(registered?.name).toBe('imagine');
    expect(discord.state.globalCommands.map((command) => command.name)).toEqual(['imagine']);
    // Overwriting keeps the ID of a command with the same name, as Discord does.
    await ready.application.commands.set([imagine]);
    expect(discord.state.globalCommands[0]?.id).toBe(registered?.id);

    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    await rest.put(Routes.applicationGuildCommands(discord.applicationId, discord.guildId), { body: [imagine] });
    expect(discord.state.guildCommands).toMatchObject([{ name: 'imagine', guild_id: discord.guildId }]);
    const listed = await rest.get(Routes.applicationGuildCommands(discord.applicationId, discord.guildId));
    expect(listed).toHaveLength(1);
    await expect(
      rest.put(Routes.applicationGuildCommands(discord.applicationId, '1'), { body: [] }),
    ).rejects.toMatchObject({
      code: 10004,
    });
  });

  it('delivers /imagine; deferReply, editReply with files and followUp land in the channel', async () => {
    discord = await startDiscordFake();
    const ready = await readyClient(discord);
    client = ready;
    await ready.application.commands.set([imagine]);
    const general = discord.channelId('general');

    const received = nextCommand(ready);
    const run = discord.userRunsCommand({
      user: 'alice',
      channelId: general,
      name: 'imagine',
      options: { prompt: 'a cat', aspect_ratio: '16:9' },
    });
    const interaction = await received;
    expect(interaction.id).toBe(run.id);
    expect(interaction.options.getString('prompt')).toBe('a cat');
    expect(interaction.options.getString('aspect_ratio')).toBe('16:9');
    expect(interaction.user.username).toBe('alice');
    expect(interaction.channelId).toBe(general);

    await interaction.deferReply();
    expect(run.status).toBe('acknowledged');
    expect(run.acknowledgedAt).toBeGreaterThanOrEqual(run.createdAt);
    const original = discord.state.message(general, run.originalMessageId ?? '');
    expect(original?.flags).toBe(128);

    const edited = await interaction.editReply({ content: 'a cat', files: [{ attachment: PNG_1x1, name: 'cat.png' }] });
    expect(edited.attachments.first()?.name).toBe('cat.png');
    await interaction.followUp('one more thing');
    const fetched = await interaction.fetchReply();
    expect(fetched.content).toBe('a cat');

    const [response, followUp] = discord.state.messages(general);
    expect(response).toMatchObject({
      content: 'a cat',
      flags: 0,
      type: 20,
      interaction: { interactionId: run.id, commandName: 'imagine' },
    });
    expect(response?.attachments[0]?.bytes).toEqual(PNG_1x1);
    expect(response?.history[0]?.content).toBe('');
    expect(followUp).toMatchObject({ content: 'one more thing', interaction: { interactionId: run.id } });
    expect(run.followUpMessageIds).toEqual([followUp?.id]);
  });

  it('answers an immediate reply and refuses a second callback', async () => {
    discord = await startDiscordFake();
    const ready = await readyClient(discord);
    client = ready;
    await ready.application.commands.set([imagine]);
    const general = discord.channelId('general');
    const received = nextCommand(ready);
    discord.userRunsCommand({ user: 'alice', channelId: general, name: 'imagine', options: { prompt: 'x' } });
    const interaction = await received;
    const response = await interaction.reply({ content: 'done', withResponse: true });
    expect(response.resource?.message?.content).toBe('done');
    interaction.replied = false;
    await expect(interaction.reply('again')).rejects.toMatchObject({ code: 40060 });
    expect(discord.state.messages(general).map((message) => message.content)).toEqual(['done']);
  });

  it('takes a slow callback only once it arrives: until then the webhook is unknown (10015)', async () => {
    discord = await startDiscordFake();
    const ready = await readyClient(discord);
    client = ready;
    await ready.application.commands.set([imagine]);
    const received = nextCommand(ready);
    const run = discord.userRunsCommand({
      user: 'alice',
      channelId: discord.channelId('general'),
      name: 'imagine',
      options: { prompt: 'x' },
    });
    const interaction = await received;
    const slow = discord.slowCallbacks({ delayMs: 300, times: 1 });
    const deferred = interaction.deferReply();
    await expect(interaction.webhook.editMessage('@original', { content: 'early' })).rejects.toMatchObject({
      code: 10015,
    });
    expect(discord.state.interaction(run.id)?.status).toBe('pending');
    await deferred;
    await interaction.webhook.editMessage('@original', { content: 'in time' });
    expect(discord.state.messages(discord.channelId('general')).map((message) => message.content)).toEqual(['in time']);
    slow.off();
  });

  it('expires an interaction not answered in time: the late callback gets 10062', async () => {
    discord = await startDiscordFake({ interactionDeadlineMs: 150 });
    const ready = await readyClient(discord);
    client = ready;
    await ready.application.commands.set([imagine]);
    const received = nextCommand(ready);
    const run = discord.userRunsCommand({
      user: 'alice',
      channelId: discord.channelId('general'),
      name: 'imagine',
      options: { prompt: 'x' },
    });
    const interaction = await received;
    await discord.waitFor((state) => state.interaction(run.id)?.status === 'expired', 1000);
    await expect(interaction.deferReply()).rejects.toMatchObject({ code: 10062, status: 404 });
  });

  it('refuses to run unregistered commands, missing options and values outside the choices', async () => {
    discord = await startDiscordFake();
    const general = discord.channelId('general');
    expect(() => discord?.userRunsCommand({ user: 'a', channelId: general, name: 'imagine' })).toThrow(
      /not registered/,
    );
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    await rest.put(Routes.applicationCommands(discord.applicationId), { body: [imagine] });
    expect(() => discord?.userRunsCommand({ user: 'a', channelId: general, name: 'imagine' })).toThrow(/required/);
    expect(() =>
      discord?.userRunsCommand({
        user: 'a',
        channelId: general,
        name: 'imagine',
        options: { prompt: 'x', aspect_ratio: '2:1' },
      }),
    ).toThrow(/not a choice/);
  });
});
