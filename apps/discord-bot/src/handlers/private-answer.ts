import type { Logger } from '@genbot/core/log';
import {
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  MessageFlags,
  type RepliableInteraction,
} from 'discord.js';
import { DiscordCallError, discordCall } from '../discord-errors.js';
import { answersMustBePrivate } from '../user-install.js';

const ALREADY_ACKNOWLEDGED = 40060;
const UNKNOWN_INTERACTION = 10062;

/**
 * A short answer to the person alone (an ephemeral response), with buttons
 * when given. A delivery the gateway repeats was answered the first time:
 * Discord refusing a second answer is expected then, and only logged.
 */
export async function answerPrivately(
  interaction: RepliableInteraction,
  text: string,
  logger: Logger,
  components: readonly APIActionRowComponent<APIComponentInMessageActionRow>[] = [],
): Promise<void> {
  try {
    await discordCall(() =>
      interaction.reply({
        content: text,
        flags: MessageFlags.Ephemeral,
        ...(components.length === 0 ? {} : { components: [...components] }),
      }),
    );
  } catch (error) {
    const answeredBefore =
      error instanceof DiscordCallError && (error.code === ALREADY_ACKNOWLEDGED || error.code === UNKNOWN_INTERACTION);
    if (!answeredBefore) throw error;
    logger.debug({ code: error.code }, 'interaction answered before');
  }
}

/**
 * A refusal from the intake. Before the job was queued the interaction was
 * deferred; when the queue then failed, that deferred response is what the
 * person sees, so it says why instead of thinking forever.
 */
export async function answerRefusal(interaction: RepliableInteraction, text: string, logger: Logger): Promise<void> {
  if (interaction.deferred) {
    await discordCall(() => interaction.editReply({ content: text }));
    return;
  }
  await answerPrivately(interaction, text, logger);
}

/**
 * How to defer an answer meant for everyone: publicly, except for a user
 * install in a server that forbids external apps, where Discord would make it
 * ephemeral anyway.
 */
export function publicUnlessForbidden(interaction: RepliableInteraction): { flags?: MessageFlags.Ephemeral } {
  return answersMustBePrivate(interaction) ? { flags: MessageFlags.Ephemeral } : {};
}
