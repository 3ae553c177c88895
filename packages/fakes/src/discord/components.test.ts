import {
  ActionRowBuilder,
  ApplicationCommandType,
  ButtonBuilder,
  type ButtonInteraction,
  ButtonStyle,
  type Client,
  DiscordAPIError,
  Events,
  type Interaction,
  LabelBuilder,
  type MessageContextMenuCommandInteraction,
  ModalBuilder,
  type ModalSubmitInteraction,
  REST,
  Routes,
  type TextChannel,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';
import { readyClient } from './test-client.js';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

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

const isButton = (interaction: Interaction): interaction is ButtonInteraction => interaction.isButton();
const isModalSubmit = (interaction: Interaction): interaction is ModalSubmitInteraction => interaction.isModalSubmit();
const isMessageCommand = (interaction: Interaction): interaction is MessageContextMenuCommandInteraction =>
  interaction.isMessageContextMenuCommand();

function buttons(...ids: string[]): ActionRowBuilder<ButtonBuilder> {
  return new ActionRowBuilder<ButtonBuilder>().addComponents(
    ids.map((id) => new ButtonBuilder().setCustomId(id).setLabel(id).setStyle(ButtonStyle.Secondary)),
  );
}

async function channel(): Promise<TextChannel> {
  return (await client.channels.fetch(general)) as TextChannel;
}

function editModal(customId: string): ModalBuilder {
  return new ModalBuilder()
    .setCustomId(customId)
    .setTitle('Edit image')
    .addLabelComponents(
      new LabelBuilder()
        .setLabel('Instruction')
        .setTextInputComponent(new TextInputBuilder().setCustomId('instruction').setStyle(TextInputStyle.Paragraph)),
    );
}

describe('Discord fake message components with the real discord.js', () => {
  it('keeps the buttons a message is sent with, numbered as Discord numbers them', async () => {
    const sent = await (await channel()).send({ content: 'result', components: [buttons('reroll', 'vary')] });
    const fetched = await (await channel()).messages.fetch(sent.id);
    const row = fetched.components[0];
    expect(row?.type).toBe(1);
    expect(row?.toJSON()).toMatchObject({ components: [{ custom_id: 'reroll' }, { custom_id: 'vary' }] });
    expect(discord.state.message(general, sent.id)?.components).toEqual([
      {
        type: 1,
        id: 1,
        components: [
          { type: 2, id: 2, style: 2, label: 'reroll', custom_id: 'reroll' },
          { type: 2, id: 3, style: 2, label: 'vary', custom_id: 'vary' },
        ],
      },
    ]);
    // An edit that leaves components out keeps them.
    await fetched.edit({ content: 'result, edited' });
    expect(discord.state.message(general, sent.id)?.components).toHaveLength(1);
  });

  it('refuses duplicate custom ids, a sixth button in a row and a button without a custom id', async () => {
    const target = await channel();
    await expect(target.send({ components: [buttons('a'), buttons('a')] })).rejects.toMatchObject({
      code: 50035,
      rawError: {
        errors: {
          components: {
            '1': { components: { '0': { custom_id: { _errors: [{ code: 'COMPONENT_CUSTOM_ID_DUPLICATED' }] } } } },
          },
        },
      },
    });
    await expect(target.send({ components: [buttons('a', 'b', 'c', 'd', 'e', 'f')] })).rejects.toMatchObject({
      code: 50035,
    });
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    await expect(
      rest.post(Routes.channelMessages(general), {
        body: { components: [{ type: 1, components: [{ type: 2, style: 1, label: 'no id' }] }] },
      }),
    ).rejects.toBeInstanceOf(DiscordAPIError);
    expect(discord.state.messages(general)).toEqual([]);
  });

  it('delivers a press as a ButtonInteraction; a deferred reply edited with files and buttons is a new reply to the pressed message', async () => {
    const result = await (await channel()).send({ content: 'v1', components: [buttons('reroll')] });
    const received = next(isButton);
    const press = discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'reroll' });
    const interaction = await received;
    expect([interaction.id, interaction.customId, interaction.user.username]).toEqual([press.id, 'reroll', 'bob']);
    expect(interaction.message.id).toBe(result.id);

    await interaction.deferReply();
    const loading = discord.state.message(general, press.originalMessageId ?? '');
    expect(loading).toMatchObject({ flags: 128, type: 19, reference: { messageId: result.id } });
    const reply = await interaction.editReply({
      content: 'v2',
      files: [{ attachment: PNG_1x1, name: 'v2.png' }],
      components: [buttons('reroll', 'undo')],
    });
    expect(reply.id).toBe(loading?.id);
    expect(reply.attachments.first()?.name).toBe('v2.png');
    expect(reply.reference?.messageId).toBe(result.id);
    expect(reply.interactionMetadata).toMatchObject({ id: press.id, type: 3, interactedMessageId: result.id });
    const fetched = await (await channel()).messages.fetch(reply.id);
    expect(fetched.components[0]?.toJSON()).toMatchObject({
      components: [{ custom_id: 'reroll' }, { custom_id: 'undo' }],
    });
    // The pressed message was never touched.
    expect(discord.state.message(general, result.id)).toMatchObject({ content: 'v1', history: [] });
  });

  it('deferUpdate and update act on the pressed message itself', async () => {
    const result = await (await channel()).send({ content: 'v1', components: [buttons('a', 'b')] });
    let received = next(isButton);
    const first = discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'a' });
    const deferred = await received;
    await deferred.deferUpdate();
    expect([first.responseType, first.originalMessageId]).toEqual([6, result.id]);
    await deferred.editReply({ content: 'v1 (edited later)' });
    expect(discord.state.message(general, result.id)?.content).toBe('v1 (edited later)');

    received = next(isButton);
    discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'b' });
    const updated = await received;
    await updated.update({ content: 'v1 (updated)', components: [] });
    expect(discord.state.message(general, result.id)).toMatchObject({ content: 'v1 (updated)', components: [] });
    expect(discord.state.messages(general)).toHaveLength(1);
  });

  it('lets users press only enabled buttons a message carries', async () => {
    const disabled = new ButtonBuilder().setCustomId('off').setLabel('off').setStyle(ButtonStyle.Primary).setDisabled();
    const result = await (await channel()).send({
      content: 'x',
      components: [new ActionRowBuilder<ButtonBuilder>().addComponents(disabled)],
    });
    expect(() =>
      discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'off' }),
    ).toThrow(/no enabled button/);
    expect(() =>
      discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'forged' }),
    ).toThrow(/no enabled button/);
  });

  it('lets another app post a message with buttons, whose press names that app as the message’s author', async () => {
    const theirs = discord.appPosts({ app: 'other-app', channelId: general, content: 'copied', buttonIds: ['gb1:x'] });
    expect(theirs.author).toMatchObject({ username: 'other-app', bot: true });
    expect(theirs.author.id).not.toBe(client.user.id);
    const pressed = next(isButton);
    discord.userClicks({ user: 'bob', channelId: general, messageId: theirs.id, customId: 'gb1:x' });
    const interaction = await pressed;
    expect([interaction.message.id, interaction.message.author.id]).toEqual([theirs.id, theirs.author.id]);
    await interaction.deferUpdate();
  });

  it('opens a modal from a button; its submit carries the typed text and the message; answered, it closes', async () => {
    const result = await (await channel()).send({ content: 'v1', components: [buttons('edit')] });
    const pressed = next(isButton);
    const press = discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'edit' });
    await (await pressed).showModal(editModal('edit-form'));
    expect(press).toMatchObject({ responseType: 9, originalMessageId: null, modal: { customId: 'edit-form' } });
    // The modal is the whole answer: its token takes no follow-ups.
    await expect((await pressed).followUp('late')).rejects.toMatchObject({ code: 10015 });
    expect(() => discord.userSubmitsModal({ interactionId: press.id, values: { instruction: '' } })).toThrow(
      /required/,
    );

    // Unanswered, the modal stays open: the user can press Submit again.
    const submitted = next(isModalSubmit);
    const first = discord.userSubmitsModal({ interactionId: press.id, values: { instruction: 'make it blue' } });
    const submit = await submitted;
    const again = next(isModalSubmit);
    const second = discord.userSubmitsModal({ interactionId: press.id, values: { instruction: 'make it blue' } });
    expect((await again).id).toBe(second.id);
    expect([submit.id, submit.customId, submit.user.username]).toEqual([first.id, 'edit-form', 'bob']);
    expect(submit.fields.getTextInputValue('instruction')).toBe('make it blue');
    expect(submit.message?.id).toBe(result.id);

    await submit.deferReply({ flags: 64 });
    expect(discord.state.interaction(first.id)).toMatchObject({ responseType: 5, ephemeral: true });
    expect(() => discord.userSubmitsModal({ interactionId: press.id, values: { instruction: 'x' } })).toThrow(/closed/);
    // A modal cannot answer a modal submit.
    const rest = new REST({ api: discord.apiUrl });
    await expect(
      rest.post(Routes.interactionCallback(second.id, second.token), {
        auth: false,
        body: { type: 9, data: editModal('again').toJSON() },
      }),
    ).rejects.toMatchObject({ code: 50035 });
  });

  it('takes the older action-row modal and refuses a modal without inputs', async () => {
    const result = await (await channel()).send({ content: 'v1', components: [buttons('edit')] });
    let pressed = next(isButton);
    const press = discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'edit' });
    await expect(
      (await pressed).showModal({ customId: 'empty', title: 'Empty', components: [] } as never),
    ).rejects.toMatchObject({ code: 50035 });
    expect(press.status).toBe('pending');

    pressed = next(isButton);
    const retry = discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'edit' });
    const input = new TextInputBuilder()
      .setCustomId('instruction')
      .setLabel('Instruction')
      .setStyle(TextInputStyle.Short)
      .setMaxLength(10);
    await (await pressed).showModal(
      new ModalBuilder()
        .setCustomId('row-form')
        .setTitle('Edit')
        .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
    );
    expect(() =>
      discord.userSubmitsModal({ interactionId: retry.id, values: { instruction: 'far too long' } }),
    ).toThrow(/0 to 10/);
    const submitted = next(isModalSubmit);
    discord.userSubmitsModal({ interactionId: retry.id, values: { instruction: 'blue' } });
    expect((await submitted).fields.getTextInputValue('instruction')).toBe('blue');
  });

  it('registers a message command with the others; it arrives with its target, and a channel reply refers to it', async () => {
    await client.application.commands.set([
      { name: 'imagine', description: 'Generate an image' },
      { name: 'Edit image', type: ApplicationCommandType.Message },
    ]);
    expect(discord.state.globalCommands.map((command) => [command.name, command.type])).toEqual([
      ['imagine', 1],
      ['Edit image', 3],
    ]);
    const image = discord.userSays({
      user: 'alice',
      channelId: general,
      content: 'my picture',
      attachments: [{ filename: 'dot.png', bytes: PNG_1x1 }],
    });
    const received = next(isMessageCommand);
    const run = discord.userRunsMessageCommand({
      user: 'bob',
      channelId: general,
      messageId: image.id,
      name: 'Edit image',
    });
    const interaction = await received;
    expect([interaction.id, interaction.commandName, interaction.targetId]).toEqual([run.id, 'Edit image', image.id]);
    expect(interaction.targetMessage.attachments.first()?.name).toBe('dot.png');

    await interaction.showModal(editModal('message-edit'));
    const submitted = next(isModalSubmit);
    discord.userSubmitsModal({ interactionId: run.id, values: { instruction: 'sepia' } });
    const submit = await submitted;
    expect(submit.message).toBeNull();
    await submit.deferReply({ flags: 64 });

    const reply = await (await channel()).send({
      content: 'edited',
      files: [{ attachment: PNG_1x1, name: 'edited.png' }],
      reply: { messageReference: image.id },
    });
    expect(discord.state.message(general, reply.id)).toMatchObject({ type: 19, reference: { messageId: image.id } });
    expect(() =>
      discord.userRunsMessageCommand({ user: 'bob', channelId: general, messageId: image.id, name: 'imagine' }),
    ).toThrow(/not registered/);
  });

  it('takes callbacks as late while lateCallbacks is on: the interaction expires with 10062', async () => {
    const result = await (await channel()).send({ content: 'v1', components: [buttons('edit')] });
    const late = discord.lateCallbacks({ times: 1 });
    let pressed = next(isButton);
    const first = discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'edit' });
    await expect((await pressed).showModal(editModal('form'))).rejects.toMatchObject({ code: 10062 });
    expect(first.status).toBe('expired');
    pressed = next(isButton);
    const second = discord.userClicks({ user: 'bob', channelId: general, messageId: result.id, customId: 'edit' });
    await (await pressed).showModal(editModal('form'));
    expect(second.responseType).toBe(9);
    late.off();
  });

  it('refuses a chat-input command named in capitals or a message command with a description', async () => {
    await expect(client.application.commands.set([{ name: 'Imagine', description: 'x' }])).rejects.toMatchObject({
      code: 50035,
    });
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    await expect(
      rest.put(Routes.applicationCommands(discord.applicationId), {
        body: [{ name: 'Edit image', type: 3, description: 'edits' }],
      }),
    ).rejects.toMatchObject({ code: 50035 });
  });
});
