import { ASPECT_RATIOS, MAX_PROMPT_CHARS } from '@genbot/core';
import { SlashCommandBuilder, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';

export const IMAGINE_COMMAND = 'imagine';
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
 * prompt becomes an empty one it answers politely.
 */
export function parseImagineOptions(options: StringOptions): ImagineRequest {
  const aspectRatio = options.getString(ASPECT_RATIO);
  return { prompt: options.getString(PROMPT) ?? '', ...(aspectRatio === null ? {} : { aspectRatio }) };
}
