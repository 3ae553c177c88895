import { ASPECT_RATIOS, type AspectRatio } from '../genai/types.js';
import type { JsonValue, ScopedValues } from '../store/index.js';
import {
  type EffectiveSettings,
  MAX_IMAGES_PER_REQUEST,
  MAX_SYSTEM_PROMPT_CHARS,
  type OperatorSettings,
  type SettingLevel,
  type SettingName,
  workspaceOnly,
} from './catalogue.js';

/** Where an effective value came from: a channel's setting, its workspace's, or the operator's default. */
export type SettingSource = SettingLevel | 'default';

export interface ResolvedSettings {
  values: EffectiveSettings;
  from: Record<SettingName, SettingSource>;
}

/** What the store holds for each setting at each level of one place. */
export type StoredSettings = Partial<Record<SettingName, ScopedValues>>;

type Reader<K extends SettingName> = (
  value: JsonValue | undefined,
  operator: OperatorSettings,
) => EffectiveSettings[K] | undefined;

const listed =
  (list: (operator: OperatorSettings) => readonly string[]) =>
  (value: JsonValue | undefined, operator: OperatorSettings): string | undefined =>
    typeof value === 'string' && list(operator).includes(value) ? value : undefined;

const count =
  (min: number, max: number) =>
  (value: JsonValue | undefined): number | undefined =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;

/**
 * Each setting's stored value read back at the edge: undefined when it no
 * longer fits (a model since taken off its list, a ratio no longer
 * supported, a row written by hand), so the next level's value applies.
 */
const READERS: { [K in SettingName]: Reader<K> } = {
  chat_model: listed((operator) => operator.chatModels),
  image_model: listed((operator) => operator.imageModels),
  system_prompt: (value) =>
    typeof value === 'string' && value !== '' && value.length <= MAX_SYSTEM_PROMPT_CHARS ? value : undefined,
  aspect_ratio: (value) => ASPECT_RATIOS.find((ratio) => ratio === value),
  images: count(1, MAX_IMAGES_PER_REQUEST),
  enabled: (value) => (typeof value === 'boolean' ? value : undefined),
  // A workspace's budget may only lower the operator's.
  budget_images_per_day: (value, operator) =>
    lowered(count(0, Number.MAX_SAFE_INTEGER)(value), operator.budgetImagesPerDay),
  budget_chat_tokens_per_day: (value, operator) =>
    lowered(count(0, Number.MAX_SAFE_INTEGER)(value), operator.budgetChatTokensPerDay),
};

function lowered(value: number | undefined, ceiling: number | undefined): number | undefined {
  return value === undefined || ceiling === undefined ? value : Math.min(value, ceiling);
}

const DEFAULTS: { [K in SettingName]: (operator: OperatorSettings) => EffectiveSettings[K] } = {
  chat_model: (operator) => operator.chatModel,
  image_model: (operator) => operator.imageModel,
  system_prompt: (operator) => operator.systemPrompt,
  aspect_ratio: (): AspectRatio | undefined => undefined,
  images: () => 1,
  enabled: () => true,
  budget_images_per_day: (operator) => operator.budgetImagesPerDay,
  budget_chat_tokens_per_day: (operator) => operator.budgetChatTokensPerDay,
};

function resolveOne<K extends SettingName>(
  name: K,
  stored: StoredSettings,
  operator: OperatorSettings,
): [EffectiveSettings[K], SettingSource] {
  const levels: ScopedValues = stored[name] ?? {};
  const read = READERS[name] as Reader<K>;
  const channel = workspaceOnly(name) ? undefined : read(levels.channel, operator);
  if (channel !== undefined) return [channel, 'channel'];
  const workspace = read(levels.workspace, operator);
  if (workspace !== undefined) return [workspace, 'workspace'];
  return [(DEFAULTS[name] as (operator: OperatorSettings) => EffectiveSettings[K])(operator), 'default'];
}

/**
 * The settings a place runs with: a channel's value wins over its
 * workspace's (a Discord server's), which wins over the operator's; a
 * budget is a workspace's alone and never above the operator's.
 */
export function resolveSettings(stored: StoredSettings, operator: OperatorSettings): ResolvedSettings {
  const [chatModel, chatModelFrom] = resolveOne('chat_model', stored, operator);
  const [imageModel, imageModelFrom] = resolveOne('image_model', stored, operator);
  const [systemPrompt, systemPromptFrom] = resolveOne('system_prompt', stored, operator);
  const [aspectRatio, aspectRatioFrom] = resolveOne('aspect_ratio', stored, operator);
  const [images, imagesFrom] = resolveOne('images', stored, operator);
  const [enabled, enabledFrom] = resolveOne('enabled', stored, operator);
  const [budgetImages, budgetImagesFrom] = resolveOne('budget_images_per_day', stored, operator);
  const [budgetTokens, budgetTokensFrom] = resolveOne('budget_chat_tokens_per_day', stored, operator);
  return {
    values: {
      chat_model: chatModel,
      image_model: imageModel,
      system_prompt: systemPrompt,
      aspect_ratio: aspectRatio,
      images,
      enabled,
      budget_images_per_day: budgetImages,
      budget_chat_tokens_per_day: budgetTokens,
    },
    from: {
      chat_model: chatModelFrom,
      image_model: imageModelFrom,
      system_prompt: systemPromptFrom,
      aspect_ratio: aspectRatioFrom,
      images: imagesFrom,
      enabled: enabledFrom,
      budget_images_per_day: budgetImagesFrom,
      budget_chat_tokens_per_day: budgetTokensFrom,
    },
  };
}
