import { imagine } from '@genbot/core';
import { MessageFlags, type Interaction } from 'discord.js';
import { IMAGINE_COMMAND, parseImagineOptions } from '../commands.js';
import { discordCall, toChatError } from '../discord-errors.js';
import { InteractionSurface } from '../interaction-surface.js';
import { cacheMentionedMembers, cachedNames, plainText } from '../mentions.js';
import { RESTARTING, type HandlerContext } from './context.js';

/**
 * `/imagine`: deferred at once, then the core use case through the
 * interaction's webhook. No message triggers it, so nothing can be deleted to
 * cancel it: only shutdown stops it.
 */
export function handleInteraction(interaction: Interaction, context: HandlerContext): void {
  if (!interaction.isChatInputCommand() || interaction.commandName !== IMAGINE_COMMAND) return;
  const logger = context.logger.child({ interactionId: interaction.id, channelId: interaction.channelId });
  const request = parseImagineOptions(interaction.options);
  const accepted = context.work.run(
    async (signal) => {
      // Discord drops interactions unanswered after 3 s: acknowledge before anything slow.
      await discordCall(() => interaction.deferReply());
      logger.info('imagine command');
      const surface = new InteractionSurface(interaction);
      // The model (and the progress message) read names, not <@id> markup.
      await cacheMentionedMembers(request.prompt, interaction.guild);
      const prompt = plainText(request.prompt, interaction.client.user.id, cachedNames(interaction.client, interaction.guild));
      const input = { target: { channelId: interaction.channelId }, ...request, prompt, userId: interaction.user.id };
      await imagine(input, context.depsFor(surface, logger), signal);
    },
    (error) => logger.error({ err: toChatError(error) }, 'could not answer /imagine'),
  );
  if (!accepted) {
    interaction
      .reply({ content: RESTARTING, flags: MessageFlags.Ephemeral })
      .catch((error: unknown) => logger.warn({ err: toChatError(error) }, 'could not say we are restarting'));
  }
}
