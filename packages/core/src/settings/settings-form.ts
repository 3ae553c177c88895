import { type SettingChangeWords, copy } from '../copy/copy.js';
import { ASPECT_RATIOS } from '../genai/types.js';
import type { JsonValue } from '../store/index.js';
import {
  MAX_IMAGES_PER_REQUEST,
  MAX_SYSTEM_PROMPT_CHARS,
  type OperatorSettings,
  parseSetting,
  SETTING_NAMES,
  type SettingLevel,
  type SettingName,
  workspaceOnly,
} from './catalogue.js';
import { changeRefusal, type GenbotContext } from './genbot-command.js';
import type { ResolvedSettings, SettingSource } from './resolve-settings.js';

/** One field of the settings form, whatever the platform draws it as. */
export interface SettingsFormField {
  name: SettingName;
  /** `choice`: one of `choices`; `text`: free text up to `maxLength`; `number`: a whole number. */
  kind: 'choice' | 'text' | 'number';
  choices?: readonly string[];
  maxLength?: number;
  /** This level's own value as text; undefined when it inherits. */
  own: string | undefined;
  /** What applies now, as text ('' when nothing is set anywhere), and where it comes from. */
  effective: string;
  from: SettingSource;
}

/** A setting's value as the form and the answers write it. */
export function settingText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

function shape(
  name: SettingName,
  operator: OperatorSettings,
): Pick<SettingsFormField, 'kind' | 'choices' | 'maxLength'> {
  switch (name) {
    case 'chat_model':
      return { kind: 'choice', choices: operator.chatModels };
    case 'image_model':
      return { kind: 'choice', choices: operator.imageModels };
    case 'aspect_ratio':
      return { kind: 'choice', choices: ASPECT_RATIOS };
    case 'images':
      return { kind: 'choice', choices: Array.from({ length: MAX_IMAGES_PER_REQUEST }, (_, at) => String(at + 1)) };
    case 'enabled':
      return { kind: 'choice', choices: ['on', 'off'] };
    case 'system_prompt':
      return { kind: 'text', maxLength: MAX_SYSTEM_PROMPT_CHARS };
    case 'budget_images_per_day':
    case 'budget_chat_tokens_per_day':
      return { kind: 'number' };
  }
}

/** The settings a level's form holds: a channel's leaves out the workspace-only budgets. */
export function formSettings(level: SettingLevel): SettingName[] {
  return SETTING_NAMES.filter((name) => level === 'workspace' || !workspaceOnly(name));
}

/** The form of one level of a place: each setting's own value, what applies, and from where. */
export function settingsForm(
  view: ResolvedSettings,
  level: SettingLevel,
  operator: OperatorSettings,
): SettingsFormField[] {
  return formSettings(level).map((name) => ({
    name,
    ...shape(name, operator),
    own: view.from[name] === level ? settingText(view.values[name]) : undefined,
    effective: settingText(view.values[name]),
    from: view.from[name],
  }));
}

/** What a submitted form says for each setting: text, or empty / absent for "inherit". */
export type SettingsFormValues = Partial<Record<SettingName, string | undefined>>;

export type FormOutcome =
  | { ok: true; answer: string }
  /** Per field, what would fit; nothing was changed. */
  | { ok: false; errors: Partial<Record<SettingName, string>> }
  /** The whole form is refused (who may change, where); nothing was changed. */
  | { ok: false; answer: string };

/**
 * A submitted form, checked whole before anything changes: a value that
 * does not fit leaves everything as it was. Only what differs from the
 * level's own values is changed, so the same form submitted twice changes
 * nothing the second time.
 */
export async function submitSettingsForm(
  submitted: SettingsFormValues,
  level: SettingLevel,
  context: GenbotContext,
): Promise<FormOutcome> {
  const { settings, place, userId } = context;
  const names = formSettings(level);
  for (const name of names) {
    const refusal = changeRefusal(name, level, context);
    if (refusal !== undefined) return { ok: false, answer: refusal };
  }
  const view = await settings.view(place, level);
  const errors: Partial<Record<SettingName, string>> = {};
  const wanted: { name: SettingName; value: JsonValue | undefined }[] = [];
  for (const name of names) {
    const typed = submitted[name]?.trim() ?? '';
    const own = view.from[name] === level ? view.values[name] : undefined;
    if (typed === '') {
      if (own !== undefined) wanted.push({ name, value: undefined });
      continue;
    }
    const parsed = parseSetting(name, typed, settings.operator);
    if (!parsed.ok) errors[name] = parsed.answer;
    else if (settingText(parsed.value) !== settingText(own)) wanted.push({ name, value: parsed.value });
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (wanted.length === 0) return { ok: true, answer: copy.settingsUnchanged };
  const changed: SettingChangeWords[] = [];
  for (const { name, value } of wanted) {
    const recorded = await settings.change({ place, level, name, value, by: userId });
    changed.push({ name, level, platform: place.platform, previous: recorded.previous, value: recorded.value });
  }
  return { ok: true, answer: copy.settingsSaved(changed) };
}
