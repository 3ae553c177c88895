import { z } from 'zod';
import { copy } from '../copy/copy.js';
import { ASPECT_RATIOS, type AspectRatio } from '../genai/types.js';
import type { JsonValue } from '../store/index.js';

/** The longest `system_prompt` a channel or workspace may set. */
export const MAX_SYSTEM_PROMPT_CHARS = 4_000;
/** Images one `/imagine` (or `generate_image` call) may ask for. */
export const MAX_IMAGES_PER_REQUEST = 4;

export const SETTING_NAMES = [
  'chat_model',
  'image_model',
  'system_prompt',
  'aspect_ratio',
  'images',
  'enabled',
  'budget_images_per_day',
  'budget_chat_tokens_per_day',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

/** What a place runs with, every setting resolved. */
export interface EffectiveSettings {
  chat_model: string;
  image_model: string;
  system_prompt: string | undefined;
  aspect_ratio: AspectRatio | undefined;
  images: number;
  enabled: boolean;
  budget_images_per_day: number | undefined;
  budget_chat_tokens_per_day: number | undefined;
}

/** What the operator configured (the environment): the lists to choose from, the defaults and the budget ceilings. */
export interface OperatorSettings {
  chatModels: readonly string[];
  imageModels: readonly string[];
  chatModel: string;
  imageModel: string;
  systemPrompt: string | undefined;
  budgetImagesPerDay: number | undefined;
  budgetChatTokensPerDay: number | undefined;
}

export type SettingLevel = 'channel' | 'workspace';

/** A value as a person typed it, checked: what to store, or the private answer saying what would fit. */
export type ParsedSetting = { ok: true; value: JsonValue } | { ok: false; answer: string };

/** The settings only a workspace (a Discord server) may have. */
export function workspaceOnly(name: SettingName): boolean {
  return name === 'budget_images_per_day' || name === 'budget_chat_tokens_per_day';
}

export function isSettingName(name: string): name is SettingName {
  return (SETTING_NAMES as readonly string[]).includes(name);
}

const wholeNumber = z.coerce.number().int().nonnegative();

/**
 * A value for `name` as typed after `/genbot set NAME`, checked against the
 * operator's lists and ceilings: the value to store, or the words that say
 * what would fit. The one place each setting's rules live.
 */
export function parseSetting(name: SettingName, typed: string, operator: OperatorSettings): ParsedSetting {
  const text = typed.trim();
  const oneOf = (choices: readonly string[]): ParsedSetting =>
    choices.includes(text) ? { ok: true, value: text } : { ok: false, answer: copy.settingNotOneOf(name, choices) };
  switch (name) {
    case 'chat_model':
      return oneOf(operator.chatModels);
    case 'image_model':
      return oneOf(operator.imageModels);
    case 'aspect_ratio':
      return oneOf(ASPECT_RATIOS);
    case 'enabled': {
      const lower = text.toLowerCase();
      return lower === 'on' || lower === 'off'
        ? { ok: true, value: lower === 'on' }
        : { ok: false, answer: copy.settingNotOneOf(name, ['on', 'off']) };
    }
    case 'system_prompt':
      if (text === '') return { ok: false, answer: copy.settingEmpty(name) };
      return text.length <= MAX_SYSTEM_PROMPT_CHARS
        ? { ok: true, value: text }
        : { ok: false, answer: copy.settingTooLong(name, text.length, MAX_SYSTEM_PROMPT_CHARS) };
    case 'images': {
      const count = wholeNumber.safeParse(text);
      return count.success && count.data >= 1 && count.data <= MAX_IMAGES_PER_REQUEST
        ? { ok: true, value: count.data }
        : { ok: false, answer: copy.settingOutOfRange(name, 1, MAX_IMAGES_PER_REQUEST) };
    }
    case 'budget_images_per_day':
    case 'budget_chat_tokens_per_day': {
      const ceiling = name === 'budget_images_per_day' ? operator.budgetImagesPerDay : operator.budgetChatTokensPerDay;
      const count = wholeNumber.safeParse(text);
      if (!count.success) return { ok: false, answer: copy.settingOutOfRange(name, 0, ceiling) };
      return ceiling === undefined || count.data <= ceiling
        ? { ok: true, value: count.data }
        : { ok: false, answer: copy.settingOutOfRange(name, 0, ceiling) };
    }
  }
}
