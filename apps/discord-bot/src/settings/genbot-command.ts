import { type GenbotRequest, SETTING_NAMES, type SettingLevel } from '@genbot/core/settings';
import {
  ApplicationIntegrationType,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  SlashCommandBuilder,
  type SlashCommandStringOption,
} from 'discord.js';
import type { SettingsPage } from './settings-ids.js';

export const GENBOT_COMMAND = 'genbot';
const NAME = 'name';
const VALUE = 'value';
const SCOPE = 'scope';
const PAGE = 'page';
const SERVER = 'server';

function scopeOption(option: SlashCommandStringOption): SlashCommandStringOption {
  return option
    .setName(SCOPE)
    .setDescription('This channel (default) or the whole server (Manage Server)')
    .addChoices({ name: 'channel', value: 'channel' }, { name: SERVER, value: SERVER });
}

function nameOption(option: SlashCommandStringOption): SlashCommandStringOption {
  return option
    .setName(NAME)
    .setDescription('Which setting')
    .setRequired(true)
    .addChoices(...SETTING_NAMES.map((name) => ({ name, value: name })));
}

/**
 * `/genbot settings|show|set|reset`, as registered with Discord. Everyone may
 * use it (`show` is for all), so no `default_member_permissions`: who may
 * change what is checked on every call from the member's own permissions.
 * Only a server install offers it (a person's own install cannot administer a
 * server), in servers and the bot's DM.
 */
export function genbotCommand(): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return new SlashCommandBuilder()
    .setName(GENBOT_COMMAND)
    .setDescription("genbot's settings in this channel and server")
    .addSubcommand((sub) =>
      sub
        .setName('settings')
        .setDescription('Open the settings form')
        .addStringOption(scopeOption)
        .addStringOption((option) =>
          option
            .setName(PAGE)
            .setDescription('Which part of the form (default: chat)')
            .addChoices({ name: 'chat', value: 'chat' }, { name: 'images', value: 'images' }),
        ),
    )
    .addSubcommand((sub) => sub.setName('show').setDescription('Show the settings that apply here'))
    .addSubcommand((sub) =>
      sub
        .setName('set')
        .setDescription('Change one setting')
        .addStringOption(nameOption)
        .addStringOption((option) => option.setName(VALUE).setDescription('The new value').setRequired(true))
        .addStringOption(scopeOption),
    )
    .addSubcommand((sub) =>
      sub
        .setName('reset')
        .setDescription('Go back to the inherited value')
        .addStringOption(nameOption)
        .addStringOption(scopeOption),
    )
    .toJSON();
}

/** Where Discord reads it on a global command: server installs only, in servers and the bot's DM. */
export const SERVER_INSTALL_ONLY = {
  integration_types: [ApplicationIntegrationType.GuildInstall],
  contexts: [InteractionContextType.Guild, InteractionContextType.BotDM],
};

/** The slice of discord.js's option resolver the command reads. */
export interface GenbotOptions {
  getSubcommand(required?: boolean): string | null;
  getString(name: string): string | null;
}

/** What `/genbot` was asked: the form (of a level and page), or core's show, set and reset. */
export type DiscordGenbotRequest =
  | { kind: 'form'; level: SettingLevel; page: SettingsPage }
  | Extract<GenbotRequest, { kind: 'show' | 'set' | 'reset' }>;

/** The subcommand and its options; Discord enforces the definition, so a missing one reads as empty. */
export function parseGenbotOptions(options: GenbotOptions): DiscordGenbotRequest {
  const level: SettingLevel = options.getString(SCOPE) === SERVER ? 'workspace' : 'channel';
  const name = options.getString(NAME) ?? '';
  switch (options.getSubcommand(false)) {
    case 'set':
      return { kind: 'set', name, value: options.getString(VALUE) ?? '', level };
    case 'reset':
      return { kind: 'reset', name, level };
    case 'settings':
      return { kind: 'form', level, page: options.getString(PAGE) === 'images' ? 'images' : 'chat' };
    default:
      return { kind: 'show' };
  }
}
