import { copy } from '@genbot/core/copy';
import type { OperatorSettings, SettingName, SettingsFormField, SettingsFormValues } from '@genbot/core/settings';
import {
  type APIModalInteractionResponseCallbackData,
  ComponentType,
  LabelBuilder,
  ModalBuilder,
  type ModalSubmitFields,
  StringSelectMenuBuilder,
  StringSelectMenuOptionBuilder,
  TextDisplayBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { pageSettings, type SettingsFormTarget, settingsFormId } from './settings-ids.js';

/** The option that leaves a setting to inherit: no choice (model, ratio, count, on/off) reads like it. */
const INHERIT = '(inherit)';
/** Discord's most options in one select: past it (a long model list), the field is typed instead. */
const MAX_SELECT_OPTIONS = 25;

function ceilingOf(name: SettingName, operator: OperatorSettings): number | undefined {
  if (name === 'budget_images_per_day') return operator.budgetImagesPerDay;
  if (name === 'budget_chat_tokens_per_day') return operator.budgetChatTokensPerDay;
  return undefined;
}

function select(field: SettingsFormField, choices: readonly string[]): StringSelectMenuBuilder {
  const words = copy.discordSettings;
  return new StringSelectMenuBuilder().setCustomId(field.name).addOptions(
    new StringSelectMenuOptionBuilder()
      .setLabel(words.inherit(field.own, field.effective, field.from))
      .setValue(INHERIT)
      .setDefault(field.own === undefined),
    ...choices.map((choice) =>
      new StringSelectMenuOptionBuilder()
        .setLabel(choice)
        .setValue(choice)
        .setDefault(field.own === choice),
    ),
  );
}

function textInput(field: SettingsFormField, operator: OperatorSettings): TextInputBuilder {
  const words = copy.discordSettings;
  const input = new TextInputBuilder().setCustomId(field.name).setRequired(false);
  if (field.own !== undefined) input.setValue(field.own);
  if (field.kind === 'text') {
    input.setStyle(TextInputStyle.Paragraph).setPlaceholder(words.textPlaceholder);
    return field.maxLength === undefined ? input : input.setMaxLength(field.maxLength);
  }
  input.setStyle(TextInputStyle.Short);
  return input.setPlaceholder(
    field.kind === 'number'
      ? words.numberPlaceholder(ceilingOf(field.name, operator))
      : words.choicePlaceholder(field.choices ?? []),
  );
}

function label(field: SettingsFormField, operator: OperatorSettings): LabelBuilder {
  const built = new LabelBuilder()
    .setLabel(field.name)
    .setDescription(copy.discordSettings.now(field.own, field.effective, field.from));
  const choices = field.choices ?? [];
  return field.kind === 'choice' && choices.length < MAX_SELECT_OPTIONS
    ? built.setStringSelectMenuComponent(select(field, choices))
    : built.setTextInputComponent(textInput(field, operator));
}

/**
 * One modal of the settings form: a line on what inheriting means, then each
 * of the page's settings as a select of its choices (with "inherit") or a text
 * field, each saying what applies now and where it comes from.
 */
export function settingsModal(
  fields: readonly SettingsFormField[],
  target: SettingsFormTarget,
  operator: OperatorSettings,
): APIModalInteractionResponseCallbackData {
  const shown = pageSettings(target.page).flatMap((name) => fields.filter((field) => field.name === name));
  return new ModalBuilder()
    .setCustomId(settingsFormId(target))
    .setTitle(copy.discordSettings.title(target.level, target.page))
    .addTextDisplayComponents(
      new TextDisplayBuilder().setContent(copy.discordSettings.intro(target.level, target.page)),
    )
    .addLabelComponents(...shown.map((field) => label(field, operator)))
    .toJSON();
}

/**
 * The whole form as submitted: the level's own values (what it holds now),
 * with what this page's fields say in their place. A field missing from the
 * submission keeps its value, so only what the person changed can change.
 */
export function submittedSettings(
  submitted: ModalSubmitFields,
  target: SettingsFormTarget,
  fields: readonly SettingsFormField[],
): SettingsFormValues {
  const values: SettingsFormValues = {};
  for (const field of fields) values[field.name] = field.own ?? '';
  for (const name of pageSettings(target.page)) {
    if (!fields.some((field) => field.name === name)) continue;
    const given = submitted.fields.get(name);
    if (given?.type === ComponentType.TextInput) values[name] = given.value;
    if (given?.type === ComponentType.StringSelect) {
      const [value] = given.values;
      values[name] = value === undefined || value === INHERIT ? '' : value;
    }
  }
  return values;
}
