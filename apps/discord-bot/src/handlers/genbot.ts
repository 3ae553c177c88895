import { copy } from '@genbot/core/copy';
import type { Logger } from '@genbot/core/log';
import {
  type GenbotContext,
  mayChange,
  runGenbot,
  type SettingLevel,
  type SettingsPlace,
  type SettingsRights,
  settingsForm,
  submitSettingsForm,
} from '@genbot/core/settings';
import {
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  ActionRowBuilder,
  type ButtonInteraction,
  ButtonBuilder,
  ButtonStyle,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { discordCall } from '../discord-errors.js';
import { parseGenbotOptions } from '../settings/genbot-command.js';
import { memberRights } from '../settings/member-rights.js';
import {
  parseSettingsFormId,
  parseSettingsOpenerId,
  type SettingsFormTarget,
  settingsOpenerId,
} from '../settings/settings-ids.js';
import { settingsModal, submittedSettings } from '../settings/settings-modal.js';
import type { IngressContext } from './context.js';
import { settingsChannelOf } from '../settings-channel.js';
import { answerPrivately } from './private-answer.js';

type SettingsInteraction = ChatInputCommandInteraction | ButtonInteraction | ModalSubmitInteraction;

/**
 * Where the interaction came from, for its settings: a thread's are its
 * channel's (a thread is a conversation in it); no guild is the bot's DM.
 */
function placeOf(interaction: SettingsInteraction): SettingsPlace {
  const { channel } = interaction;
  const channelId = settingsChannelOf(channel) ?? interaction.channelId ?? '';
  return interaction.guildId === null
    ? { platform: 'discord', channelId, dm: true }
    : { platform: 'discord', workspaceId: interaction.guildId, channelId };
}

/** Who may change what is read afresh from each interaction: nothing is remembered between calls. */
function genbotContext(interaction: SettingsInteraction, context: IngressContext): GenbotContext {
  return {
    settings: context.settings,
    place: placeOf(interaction),
    userId: interaction.user.id,
    rights: memberRights(interaction.user.id, interaction.memberPermissions, context.adminUserIds),
  };
}

/** Why this person may not use a level's form here; undefined when they may. */
function formRefusal(level: SettingLevel, genbot: GenbotContext): string | undefined {
  if (genbot.place.workspaceId === undefined) return copy.settingsNotInDm('discord');
  if (!mayChange(genbot.rights, level)) return copy.settingsNotAllowed(level, 'discord');
  return undefined;
}

/** Under an answer about the form: its two parts, and for those who may, the other level's. */
function formButtons(
  target: SettingsFormTarget,
  rights: SettingsRights,
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const words = copy.discordSettings;
  const button = (label: string, opens: SettingsFormTarget) =>
    new ButtonBuilder().setStyle(ButtonStyle.Secondary).setLabel(label).setCustomId(settingsOpenerId(opens));
  const buttons = [
    button(words.openChat, { ...target, page: 'chat' }),
    button(words.openImages, { ...target, page: 'images' }),
  ];
  const other: SettingLevel = target.level === 'channel' ? 'workspace' : 'channel';
  if (mayChange(rights, other)) {
    buttons.push(button(other === 'workspace' ? words.openServer : words.openChannel, { ...target, level: other }));
  }
  return [new ActionRowBuilder<ButtonBuilder>().addComponents(buttons).toJSON()];
}

/** Opens one modal of the form, as the interaction's first answer (Discord takes a modal only then). */
async function openSettings(
  interaction: ChatInputCommandInteraction | ButtonInteraction,
  target: SettingsFormTarget,
  genbot: GenbotContext,
  logger: Logger,
): Promise<void> {
  const refusal = formRefusal(target.level, genbot);
  if (refusal !== undefined) {
    await answerPrivately(interaction, refusal, logger);
    return;
  }
  const { settings, place } = genbot;
  const view = await settings.view(place, target.level);
  const modal = settingsModal(settingsForm(view, target.level, settings.operator), target, settings.operator);
  await discordCall(() => interaction.showModal(modal));
  logger.info({ level: target.level, page: target.page }, 'settings form opened');
}

/** `/genbot`: the form, or show / set / reset answered privately by core. */
export async function answerGenbot(
  command: ChatInputCommandInteraction,
  context: IngressContext,
  logger: Logger,
): Promise<void> {
  const request = parseGenbotOptions(command.options);
  const genbot = genbotContext(command, context);
  if (request.kind === 'form') {
    const target = { page: request.page, level: request.level, channelId: genbot.place.channelId };
    await openSettings(command, target, genbot, logger);
    return;
  }
  const answer = await runGenbot(request, genbot);
  logger.info({ kind: request.kind }, 'genbot command answered');
  await answerPrivately(command, answer, logger);
}

/** Whether a button or a form is the settings form's: the router hands it here. */
export const isSettingsButton = (customId: string): boolean => parseSettingsOpenerId(customId) !== undefined;
export const isSettingsForm = (customId: string): boolean => parseSettingsFormId(customId) !== undefined;

/**
 * A button under an earlier answer: opens the part or level it names, for
 * this channel only, if the person may still change it.
 */
export async function pressSettingsButton(
  press: ButtonInteraction,
  context: IngressContext,
  logger: Logger,
): Promise<void> {
  const target = parseSettingsOpenerId(press.customId);
  const genbot = genbotContext(press, context);
  if (target === undefined || target.channelId !== genbot.place.channelId) {
    await answerPrivately(press, copy.discordSettings.otherChannel, logger);
    return;
  }
  await openSettings(press, target, genbot, logger);
}

/**
 * A submitted settings modal. Its id names the level and the channel: the
 * rights are checked again (they may have changed since it opened), and a
 * form naming another channel than the one it came from changes nothing.
 * Core checks the form whole and changes only what differs, so the same form
 * sent twice changes nothing the second time.
 */
export async function submitSettings(
  submit: ModalSubmitInteraction,
  context: IngressContext,
  logger: Logger,
): Promise<void> {
  const target = parseSettingsFormId(submit.customId);
  const genbot = genbotContext(submit, context);
  if (target === undefined || target.channelId !== genbot.place.channelId) {
    logger.warn({ customId: submit.customId }, 'a settings form for another channel');
    await answerPrivately(submit, copy.discordSettings.otherChannel, logger);
    return;
  }
  const refusal = formRefusal(target.level, genbot);
  if (refusal !== undefined) {
    await answerPrivately(submit, refusal, logger);
    return;
  }
  const { settings, place } = genbot;
  const fields = settingsForm(await settings.view(place, target.level), target.level, settings.operator);
  const outcome = await submitSettingsForm(submittedSettings(submit.fields, target, fields), target.level, genbot);
  const answer = 'answer' in outcome ? outcome.answer : copy.discordSettings.notSaved(Object.values(outcome.errors));
  logger.info({ level: target.level, page: target.page, ok: outcome.ok }, 'settings form submitted');
  await answerPrivately(submit, answer, logger, formButtons(target, genbot.rights));
}
