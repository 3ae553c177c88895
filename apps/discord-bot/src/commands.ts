import { MAX_PROMPT_CHARS, splitAspectFlag } from '@genbot/core/chat';
import { ASPECT_RATIOS } from '@genbot/core/genai';
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  ContextMenuCommandBuilder,
  InteractionContextType,
  type RESTPostAPIApplicationCommandsJSONBody,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
  SlashCommandBuilder,
} from 'discord.js';
import { genbotCommand, SERVER_INSTALL_ONLY } from './settings/genbot-command.js';

export const IMAGINE_COMMAND = 'imagine';
export const USAGE_COMMAND = 'usage';
/** The message command's name is what the Apps menu shows. */
export const EDIT_IMAGE_COMMAND = 'Edit image';
const PROMPT = 'prompt';
const ASPECT_RATIO = 'aspect_ratio';

/** `/imagine prompt:<text> [aspect_ratio:<choice>]`, as registered with Discord. */
export function imagineCommand(): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return new SlashCommandBuilder()
    .setName(IMAGINE_COMMAND)
    .setDescription('Generate images from a prompt')
    .addStringOption((option) =>
      option.setName(PROMPT).setDescription('What to draw').setRequired(true).setMaxLength(MAX_PROMPT_CHARS),
    )
    .addStringOption((option) =>
      option
        .setName(ASPECT_RATIO)
        .setDescription('Shape of the images (default 1:1)')
        .addChoices(...ASPECT_RATIOS.map((ratio) => ({ name: ratio, value: ratio }))),
    )
    .toJSON();
}

/** `/usage`: no options; the answer is private. */
export function usageCommand(): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return new SlashCommandBuilder()
    .setName(USAGE_COMMAND)
    .setDescription('Your images and chat tokens today and this month, and what is left of your daily quota')
    .toJSON();
}

/** **Edit image** in a message's Apps menu (right-click): a form asks how to change the message's image. */
export function editImageCommand(): RESTPostAPIContextMenuApplicationCommandsJSONBody {
  return new ContextMenuCommandBuilder().setName(EDIT_IMAGE_COMMAND).setType(ApplicationCommandType.Message).toJSON();
}

/**
 * Where a global command may be used: installed to a server or to a person's
 * account (a user install), in a server, the bot's DM and other DMs and group
 * DMs. Discord reads both only on global commands.
 */
export const EVERYWHERE = {
  integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
  contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
};

/**
 * Every command the bot answers, as registered with Discord: global ones
 * (the default) work wherever a server or a person installed the app, but
 * `/genbot` (settings) only where a server did; guild ones (for development)
 * are that guild's alone.
 */
export function allCommands(scope: 'global' | 'guild' = 'global'): RESTPostAPIApplicationCommandsJSONBody[] {
  const commands = [imagineCommand(), usageCommand(), editImageCommand()];
  if (scope === 'guild') return [...commands, genbotCommand()];
  return [
    ...commands.map((command) => ({ ...command, ...EVERYWHERE })),
    { ...genbotCommand(), ...SERVER_INSTALL_ONLY },
  ];
}

export interface ImagineRequest {
  prompt: string;
  aspectRatio?: string;
}

/** The slice of discord.js's option resolver we read. */
export interface StringOptions {
  getString(name: string): string | null;
}

/**
 * The options of an `/imagine` interaction. Discord enforces the definition
 * (required prompt, listed ratios); core still checks both, so a missing
 * prompt becomes an empty one it answers politely. `--ar W:H` typed inside the
 * prompt is read as the aspect ratio, as on Slack (the option wins when both
 * are given); a bare `--ar` is dropped, leaving the default ratio.
 */
export function parseImagineOptions(options: StringOptions): ImagineRequest {
  const chosen = options.getString(ASPECT_RATIO);
  const typed = splitAspectFlag(options.getString(PROMPT) ?? '');
  const aspectRatio = chosen ?? typed.aspectRatio;
  return { prompt: typed.prompt, ...(aspectRatio === undefined ? {} : { aspectRatio }) };
}
