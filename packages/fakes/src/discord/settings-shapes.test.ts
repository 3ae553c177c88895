import {
  type ChatInputCommandInteraction,
  type Client,
  Events,
  type Interaction,
  LabelBuilder,
  ModalBuilder,
  type ModalSubmitInteraction,
  PermissionFlagsBits,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  StringSelectMenuOptionBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DiscordFake, startDiscordFake } from './index.js';
import { readyClient } from './test-client.js';

let discord: DiscordFake;
let client: Client<true>;
let general: string;

beforeEach(async () => {
  discord = await startDiscordFake();
  client = await readyClient(discord);
  general = discord.channelId('general');
});

afterEach(async () => {
  await client.destroy();
  await discord.close();
});

function next<T extends Interaction>(accept: (interaction: Interaction) => interaction is T): Promise<T> {
  return new Promise((resolve) => {
    const listener = (interaction: Interaction): void => {
      if (!accept(interaction)) return;
      client.off(Events.InteractionCreate, listener);
      resolve(interaction);
    };
    client.on(Events.InteractionCreate, listener);
  });
}

const isCommand = (interaction: Interaction): interaction is ChatInputCommandInteraction =>
  interaction.isChatInputCommand();
const isModalSubmit = (interaction: Interaction): interaction is ModalSubmitInteraction => interaction.isModalSubmit();

const settingsCommand = new SlashCommandBuilder()
  .setName('genbot')
  .setDescription('Settings')
  .addSubcommand((sub) => sub.setName('show').setDescription('Show'))
  .addSubcommand((sub) =>
    sub
      .setName('set')
      .setDescription('Set')
      .addStringOption((option) =>
        option
          .setName('name')
          .setDescription('Which')
          .setRequired(true)
          .addChoices({ name: 'images', value: 'images' }, { name: 'enabled', value: 'enabled' }),
      )
      .addStringOption((option) => option.setName('value').setDescription('To what').setRequired(true)),
  );

function choice(label: string, value: string, selected = false): StringSelectMenuOptionBuilder {
  return new StringSelectMenuOptionBuilder().setLabel(label).setValue(value).setDefault(selected);
}

function selectModal(customId: string, options: StringSelectMenuOptionBuilder[]): ModalBuilder {
  return new ModalBuilder()
    .setCustomId(customId)
    .setTitle('Settings')
    .addLabelComponents(
      new LabelBuilder()
        .setLabel('images')
        .setStringSelectMenuComponent(new StringSelectMenuBuilder().setCustomId('images').addOptions(options)),
      new LabelBuilder()
        .setLabel('system_prompt')
        .setTextInputComponent(
          new TextInputBuilder().setCustomId('system_prompt').setStyle(TextInputStyle.Paragraph).setRequired(false),
        ),
    );
}

describe('Discord fake: subcommands, member permissions and selects in modals', () => {
  it('runs a subcommand with its options, and refuses one that is not there or options of another', async () => {
    await client.application.commands.set([settingsCommand.toJSON()]);
    const received = next(isCommand);
    discord.userRunsCommand({
      user: 'alice',
      channelId: general,
      name: 'genbot',
      subcommand: 'set',
      options: { name: 'images', value: '3' },
    });
    const command = await received;
    expect([
      command.options.getSubcommand(),
      command.options.getString('name'),
      command.options.getString('value'),
    ]).toEqual(['set', 'images', '3']);
    await command.reply({ content: 'ok', flags: 64 });

    expect(() => discord.userRunsCommand({ user: 'alice', channelId: general, name: 'genbot' })).toThrow(/subcommands/);
    expect(() =>
      discord.userRunsCommand({
        user: 'alice',
        channelId: general,
        name: 'genbot',
        subcommand: 'show',
        options: { name: 'images' },
      }),
    ).toThrow(/no option name/);
    expect(() =>
      discord.userRunsCommand({
        user: 'alice',
        channelId: general,
        name: 'genbot',
        subcommand: 'set',
        options: { name: 'colour', value: 'red' },
      }),
    ).toThrow(/not a choice/);
  });

  it('refuses a command mixing subcommands with plain options', async () => {
    await expect(
      client.application.commands.set([
        {
          name: 'genbot',
          description: 'x',
          options: [
            { type: 1, name: 'show', description: 'Show' },
            { type: 3, name: 'name', description: 'Which' },
          ],
        },
      ]),
    ).rejects.toMatchObject({ code: 50035 });
  });

  it("carries each member's granted permissions; the owner is an Administrator", async () => {
    await client.application.commands.set([settingsCommand.toJSON()]);
    const permissionsOf = async (user: string) => {
      const received = next(isCommand);
      discord.userRunsCommand({ user, channelId: general, name: 'genbot', subcommand: 'show' });
      const command = await received;
      await command.reply({ content: 'ok', flags: 64 });
      return command.memberPermissions;
    };
    expect((await permissionsOf('alice'))?.has(PermissionFlagsBits.ManageChannels)).toBe(false);
    discord.grantPermissions('alice', ['ManageChannels']);
    const alice = await permissionsOf('alice');
    expect([alice?.has(PermissionFlagsBits.ManageChannels), alice?.has(PermissionFlagsBits.ManageGuild)]).toEqual([
      true,
      false,
    ]);
    discord.grantPermissions('alice', []);
    expect((await permissionsOf('alice'))?.has(PermissionFlagsBits.ManageChannels)).toBe(false);
    expect((await permissionsOf('guild-owner'))?.has(PermissionFlagsBits.ManageGuild)).toBe(true);
  });

  it('takes a string select in a Label; its submit carries the picked values, or the defaults untouched', async () => {
    await client.application.commands.set([settingsCommand.toJSON()]);
    let received = next(isCommand);
    const run = discord.userRunsCommand({ user: 'alice', channelId: general, name: 'genbot', subcommand: 'show' });
    await (await received).showModal(selectModal('form', [choice('1', '1', true), choice('2', '2')]));
    expect(run.modal?.selects).toMatchObject([
      { customId: 'images', options: [{ value: '1', default: true }, { value: '2' }] },
    ]);
    expect(() => discord.userSubmitsModal({ interactionId: run.id, values: { images: '7' } })).toThrow(/no option 7/);
    expect(() => discord.userSubmitsModal({ interactionId: run.id, values: { images: ['1', '2'] } })).toThrow(
      /1 to 1 values/,
    );

    let submitted = next(isModalSubmit);
    discord.userSubmitsModal({ interactionId: run.id, values: { images: '2', system_prompt: 'Be brief.' } });
    let submit = await submitted;
    expect(submit.fields.getStringSelectValues('images')).toEqual(['2']);
    expect(submit.fields.getTextInputValue('system_prompt')).toBe('Be brief.');
    await submit.reply({ content: 'saved', flags: 64 });

    received = next(isCommand);
    const again = discord.userRunsCommand({ user: 'alice', channelId: general, name: 'genbot', subcommand: 'show' });
    await (await received).showModal(selectModal('form', [choice('1', '1', true), choice('2', '2')]));
    submitted = next(isModalSubmit);
    discord.userSubmitsModal({ interactionId: again.id, values: {} });
    submit = await submitted;
    expect([submit.fields.getStringSelectValues('images'), submit.fields.getTextInputValue('system_prompt')]).toEqual([
      ['1'],
      '',
    ]);
  });

  it('refuses a modal of six components, a select with two defaults of one value, or duplicated custom ids', async () => {
    await client.application.commands.set([settingsCommand.toJSON()]);
    const label = (id: string) =>
      new LabelBuilder()
        .setLabel(id)
        .setTextInputComponent(new TextInputBuilder().setCustomId(id).setStyle(TextInputStyle.Short));
    const tries = [
      new ModalBuilder()
        .setCustomId('six')
        .setTitle('Six')
        .addLabelComponents(...['a', 'b', 'c', 'd', 'e', 'f'].map(label)),
      selectModal('two-defaults', [choice('1', '1', true), choice('2', '2', true)]),
      new ModalBuilder().setCustomId('twice').setTitle('Twice').addLabelComponents(label('a'), label('a')),
    ];
    for (const modal of tries) {
      const received = next(isCommand);
      const run = discord.userRunsCommand({ user: 'alice', channelId: general, name: 'genbot', subcommand: 'show' });
      await expect((await received).showModal(modal)).rejects.toMatchObject({ code: 50035 });
      expect(run.status).toBe('pending');
    }
  });
});
