import type { SettingLevel, SettingName } from '@genbot/core/settings';

/** The settings form comes in two modals (Discord takes at most 5 components in one). */
export type SettingsPage = 'chat' | 'images';

/** Which settings each modal holds, in order; a channel's leaves out the server-only budgets. */
const PAGE_SETTINGS: Readonly<Record<SettingsPage, readonly SettingName[]>> = {
  chat: ['enabled', 'chat_model', 'system_prompt', 'budget_chat_tokens_per_day'],
  images: ['image_model', 'aspect_ratio', 'images', 'budget_images_per_day'],
};

export function pageSettings(page: SettingsPage): readonly SettingName[] {
  return PAGE_SETTINGS[page];
}

/** One modal of the settings form: which part, of which level, of which channel. */
export interface SettingsFormTarget {
  page: SettingsPage;
  level: SettingLevel;
  channelId: string;
}

/** A modal's id, and the id of a button that opens it: both name the channel, checked when used. */
const FORM = 'gbs';
const OPENER = 'gbo';
const SNOWFLAKE = /^\d{1,20}$/;
const LEVELS: Readonly<Record<SettingLevel, string>> = { channel: 'c', workspace: 's' };
const PAGES: Readonly<Record<SettingsPage, string>> = { chat: 'chat', images: 'img' };

function idOf(prefix: string, target: SettingsFormTarget): string {
  return `${prefix}:${PAGES[target.page]}:${LEVELS[target.level]}:${target.channelId}`;
}

function parse(prefix: string, customId: string): SettingsFormTarget | undefined {
  const [kind, page, level, channelId, ...rest] = customId.split(':');
  if (kind !== prefix || channelId === undefined || !SNOWFLAKE.test(channelId) || rest.length > 0) return undefined;
  const pageName = (Object.keys(PAGES) as SettingsPage[]).find((name) => PAGES[name] === page);
  const levelName = (Object.keys(LEVELS) as SettingLevel[]).find((name) => LEVELS[name] === level);
  if (pageName === undefined || levelName === undefined) return undefined;
  return { page: pageName, level: levelName, channelId };
}

export const settingsFormId = (target: SettingsFormTarget): string => idOf(FORM, target);
export const settingsOpenerId = (target: SettingsFormTarget): string => idOf(OPENER, target);
/** The form a submitted modal is; undefined for any other id. */
export const parseSettingsFormId = (customId: string): SettingsFormTarget | undefined => parse(FORM, customId);
/** The form a pressed button opens; undefined for any other id. */
export const parseSettingsOpenerId = (customId: string): SettingsFormTarget | undefined => parse(OPENER, customId);
