import { imagine } from '@genbot/core';
import { MessageFlags, type Interaction } from 'discord.js';
import { IMAGINE_COMMAND, parseImagineOptions } from '../commands.js';
import { discordCall, toChatError } from '../discord-errors.js';
import { InteractionSurface } from '../interaction-surface.js';
import { RESTARTING, type HandlerContext } from './context.js';

/** `/imagine`: deferred at once, then the core use case through the interaction's webhook. */
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
      await imagine({ target: { channelId: interaction.channelId }, ...request }, context.depsFor(surface, logger), signal);
    },
    (error) => logger.error({ err: toChatError(error) }, 'could not answer /imagine'),
  );
  if (!accepted) {
    interaction
      .reply({ content: RESTARTING, flags: MessageFlags.Ephemeral })
      .catch((error: unknown) => logger.warn({ err: toChatError(error) }, 'could not say we are restarting'));
  }
}
