import { copy } from '@genbot/core/copy';
import {
  type ResolvedSettings,
  type SettingLevel,
  type SettingName,
  type SettingsFormField,
  settingText,
} from '@genbot/core/settings';
import type { types } from '@slack/bolt';

/** The settings modal's callback_id, the select that switches its level, and each field's one action. */
export const SETTINGS_FORM_CALLBACK = 'genbot-settings';
export const LEVEL_ACTION = 'genbot-settings-level';
/** The Home tab's button that opens the workspace's settings form (its value: the person's DM with the app). */
export const HOME_SETTINGS_ACTION = 'genbot-settings-home';
const LEVEL_BLOCK = 'level';
export const VALUE_ACTION = 'value';
/** A select's "inherit" option: Slack's options need a value, and no setting has this one. */
export const INHERIT = '-inherit-';

/** Slack's limits: an option's text 75 characters, a placeholder 150, a text input 3,000, 100 options a select. */
const OPTION_CHARS = 75;
const PLACEHOLDER_CHARS = 150;
export const MAX_INPUT_CHARS = 3_000;
const MAX_OPTIONS = 100;
/** How much of an inherited value (a long system prompt) an option or placeholder shows. */
const SHOWN_VALUE_CHARS = 40;

const plain = (text: string): types.PlainTextElement => ({ type: 'plain_text', text, emoji: true });
const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const option = (text: string, value: string): types.PlainTextOption => ({
  text: plain(clip(text, OPTION_CHARS)),
  value,
});

export interface SettingsModalInput {
  level: SettingLevel;
  channelId: string;
  /** This level's fields (`settingsForm`). */
  fields: readonly SettingsFormField[];
  /** What each field takes when left on "inherit", and from where: the workspace's (or the default) for a channel, the default for a workspace. */
  inherited: ResolvedSettings;
  /** Whether the person may switch the form between the channel and the workspace. */
  switchable: boolean;
  /** The sealed place (`SettingsFormSeal`). */
  metadata: string;
}

function inheritWords(name: SettingName, inherited: ResolvedSettings): string {
  const value = clip(settingText(inherited.values[name]), SHOWN_VALUE_CHARS);
  return copy.settingsModal.inherit(name, value, inherited.from[name], 'slack');
}

function choiceElement(field: SettingsFormField, inherit: types.PlainTextOption): types.StaticSelect {
  // Slack takes 100 options; the own value stays offered whatever the list's length.
  const choices = [...(field.choices ?? [])].slice(0, MAX_OPTIONS - 1);
  if (field.own !== undefined && !choices.includes(field.own)) choices[choices.length - 1] = field.own;
  const options = [inherit, ...choices.map((choice) => option(choice, choice))];
  const own = field.own === undefined ? undefined : options.find((each) => each.value === field.own);
  return { type: 'static_select', action_id: VALUE_ACTION, options, initial_option: own ?? inherit };
}

function textElement(field: SettingsFormField, placeholder: string): types.PlainTextInput {
  return {
    type: 'plain_text_input',
    action_id: VALUE_ACTION,
    multiline: field.kind === 'text',
    ...(field.kind === 'text' && { max_length: Math.min(field.maxLength ?? MAX_INPUT_CHARS, MAX_INPUT_CHARS) }),
    ...(field.own !== undefined && { initial_value: field.own }),
    placeholder: plain(clip(placeholder, PLACEHOLDER_CHARS)),
  };
}

/** One setting as a modal block: a select (first option: inherit), a text or number input (empty: inherit). */
function fieldBlock(field: SettingsFormField, inherited: ResolvedSettings): types.KnownBlock {
  const inherit = inheritWords(field.name, inherited);
  const label = plain(copy.settingsModal.label(field.name));
  if (field.kind === 'text' && field.own !== undefined && field.own.length > MAX_INPUT_CHARS) {
    // Longer than a Slack input holds: shown as it stands and kept on submit (its block is absent).
    return {
      type: 'section',
      block_id: field.name,
      text: { type: 'mrkdwn', text: copy.settingsModal.tooLongForForm(field.name, field.own.length, MAX_INPUT_CHARS) },
    };
  }
  if (field.kind === 'choice') {
    return {
      type: 'input',
      block_id: field.name,
      optional: true,
      label,
      element: choiceElement(field, option(inherit, INHERIT)),
    };
  }
  return {
    type: 'input',
    block_id: field.name,
    optional: true,
    label,
    hint: plain(copy.settingsModal.emptyInherits),
    element: textElement(field, inherit),
  };
}

function levelBlock(level: SettingLevel): types.ActionsBlock {
  const levels = (['channel', 'workspace'] as const).map((each) =>
    option(copy.settingsModal.level(each, 'slack'), each),
  );
  return {
    type: 'actions',
    block_id: LEVEL_BLOCK,
    elements: [
      {
        type: 'static_select',
        action_id: LEVEL_ACTION,
        options: levels,
        initial_option: levels.find((each) => each.value === level) ?? levels[0],
      },
    ],
  };
}

/**
 * `/genbot`'s form for one level of a place: each setting with its own value
 * chosen (or "inherit", which says what is inherited and from where), and for
 * admins a select that switches between the channel and the workspace.
 */
export function settingsModal(input: SettingsModalInput): types.ModalView {
  const { level, channelId, fields, inherited } = input;
  return {
    type: 'modal',
    callback_id: SETTINGS_FORM_CALLBACK,
    private_metadata: input.metadata,
    title: plain(copy.settingsModal.title),
    submit: plain(copy.settingsModal.save),
    close: plain(copy.settingsModal.cancel),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: copy.settingsModal.intro(level, channelId, 'slack') } },
      ...(input.switchable ? [levelBlock(level)] : []),
      ...fields.map((field) => fieldBlock(field, inherited)),
    ],
  };
}

/** The modal a refused submission or switch turns into: why, and nothing to submit. */
export function settingsNoticeModal(markdown: string): types.ModalView {
  return {
    type: 'modal',
    callback_id: SETTINGS_FORM_CALLBACK,
    title: plain(copy.settingsModal.title),
    close: plain(copy.settingsModal.close),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: clip(markdown, MAX_INPUT_CHARS) } }],
  };
}
