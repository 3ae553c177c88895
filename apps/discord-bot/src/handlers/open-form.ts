import type { Logger } from '@genbot/core/log';
import type {
  APIModalInteractionResponseCallbackData,
  ButtonInteraction,
  MessageContextMenuCommandInteraction,
} from 'discord.js';
import { DiscordCallError, discordCall } from '../discord-errors.js';

const UNKNOWN_INTERACTION = 10062;

/**
 * Opens an edit form as the interaction's first answer (Discord takes a modal
 * only then, within 3 s of the press). Past those 3 s Discord refuses it
 * (10062) and accepts nothing else on the interaction either, not even a
 * private message: the person sees Discord's own "This interaction failed"
 * and presses again. That is expected, so it is logged as a warning with how
 * late the form was, not as a failure to answer.
 */
export async function openForm(
  interaction: ButtonInteraction | MessageContextMenuCommandInteraction,
  modal: APIModalInteractionResponseCallbackData,
  logger: Logger,
): Promise<void> {
  try {
    await discordCall(() => interaction.showModal(modal));
  } catch (error) {
    if (!(error instanceof DiscordCallError && error.code === UNKNOWN_INTERACTION)) throw error;
    logger.warn(
      { ageMs: Date.now() - interaction.createdTimestamp },
      'the edit form came too late to open: Discord’s 3 s had passed',
    );
  }
}
