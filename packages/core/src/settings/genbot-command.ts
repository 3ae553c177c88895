import { type SettingChangeWords, copy } from '../copy/copy.js';
import type { JsonValue } from '../store/index.js';
import {
  isSettingName,
  parseSetting,
  SETTING_NAMES,
  type SettingLevel,
  type SettingName,
  workspaceOnly,
} from './catalogue.js';
import type { PlaceSettings, SettingsPlace } from './place-settings.js';
import { mayChange, type SettingsRights } from './who-may-change.js';

/** What `/genbot` was asked, from Slack's text or Discord's subcommands. */
export type GenbotRequest =
  | { kind: 'form' }
  | { kind: 'show' }
  | { kind: 'set'; name: string; value: string; level: SettingLevel }
  | { kind: 'reset'; name: string; level: SettingLevel }
  | { kind: 'help' };

const WORKSPACE_FLAG = /\s+--workspace\s*$/;

/**
 * Slack's `/genbot` text: empty for the form, `show`, `set NAME VALUE
 * [--workspace]` (VALUE is the rest of the line, no quotes needed) or
 * `reset NAME [--workspace]`; anything else is answered with how to use it.
 */
export function parseGenbotText(text: string): GenbotRequest {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'settings') return { kind: 'form' };
  const workspace = WORKSPACE_FLAG.test(` ${trimmed}`) || trimmed === '--workspace';
  const line = ` ${trimmed}`.replace(WORKSPACE_FLAG, '').trim();
  const level: SettingLevel = workspace ? 'workspace' : 'channel';
  const [verb = '', name = '', ...rest] = line.split(/\s+/);
  const value = line.slice(line.indexOf(name) + name.length).trim();
  switch (verb.toLowerCase()) {
    case 'show':
      return rest.length === 0 && name === '' ? { kind: 'show' } : { kind: 'help' };
    case 'set':
      return name === '' ? { kind: 'help' } : { kind: 'set', name: name.toLowerCase(), value, level };
    case 'reset':
      return name === '' || rest.length > 0 ? { kind: 'help' } : { kind: 'reset', name: name.toLowerCase(), level };
    default:
      return { kind: 'help' };
  }
}

export interface GenbotContext {
  settings: PlaceSettings;
  place: SettingsPlace;
  userId: string;
  rights: SettingsRights;
}

/** How many recorded changes `/genbot show` lists. */
const CHANGES_SHOWN = 5;

/** The private answer to `/genbot show`, `set` or `reset` (the form is each platform's own). */
export async function runGenbot(request: GenbotRequest, context: GenbotContext): Promise<string> {
  switch (request.kind) {
    case 'form':
    case 'help':
      return copy.genbotHelp;
    case 'show':
      return show(context);
    case 'set':
    case 'reset':
      return change(request, context);
  }
}

async function show({ settings, place, rights }: GenbotContext): Promise<string> {
  const [resolved, changes] = await Promise.all([settings.resolve(place), settings.changes(place, CHANGES_SHOWN)]);
  return copy.settingsShown({
    platform: place.platform,
    dm: place.dm === true,
    values: SETTING_NAMES.map((name) => ({ name, value: resolved.values[name], from: resolved.from[name] })),
    changes: changes.map((entry) => ({
      name: entry.name,
      level: entry.scope.level === 'channel' ? 'channel' : 'workspace',
      platform: place.platform,
      previous: entry.previous,
      value: entry.value,
      by: entry.by,
      at: entry.at,
    })),
    mayChange: rights.channel || rights.workspace,
  });
}

/** Why `name` may not be changed at `level` here by this person; undefined when it may. */
export function changeRefusal(name: SettingName, level: SettingLevel, context: GenbotContext): string | undefined {
  const { place, rights } = context;
  if (place.platform === 'discord' && place.workspaceId === undefined) return copy.settingsNotInDm('discord');
  if (level === 'channel' && workspaceOnly(name)) return copy.settingWorkspaceOnly(name, place.platform);
  if (level === 'channel' && place.dm === true) return copy.settingsNotInDm(place.platform);
  if (!mayChange(rights, level)) return copy.settingsNotAllowed(level, place.platform);
  return undefined;
}

async function change(
  request: Extract<GenbotRequest, { kind: 'set' | 'reset' }>,
  context: GenbotContext,
): Promise<string> {
  const { settings, place, userId } = context;
  if (!isSettingName(request.name)) return copy.settingUnknown(request.name, SETTING_NAMES);
  const name = request.name;
  const refusal = changeRefusal(name, request.level, context);
  if (refusal !== undefined) return refusal;
  let value: JsonValue | undefined;
  if (request.kind === 'set') {
    const parsed = parseSetting(name, request.value, settings.operator);
    if (!parsed.ok) return parsed.answer;
    value = parsed.value;
  }
  const recorded = await settings.change({ place, level: request.level, name, value, by: userId });
  const words: SettingChangeWords = {
    name,
    level: request.level,
    platform: place.platform,
    previous: recorded.previous,
    value: recorded.value,
  };
  if (request.kind === 'set') return copy.settingChanged(words);
  const now = await settings.resolve(place);
  return copy.settingReset({ ...words, inheritsFrom: now.from[name] });
}
