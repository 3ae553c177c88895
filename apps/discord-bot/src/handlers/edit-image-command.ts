import { copy } from '@genbot/core/copy';
import { isImageAttachment } from '@genbot/core/files';
import type { Logger } from '@genbot/core/log';
import type { MessageContextMenuCommandInteraction } from 'discord.js';
import { editForm } from '@genbot/core/jobs';
import { editModal } from '../results/edit-form.js';
import { formId } from '../results/form-ids.js';
import { messageAttachments } from '../thread-message.js';
import { interactionOnly } from '../user-install.js';
import type { EditTargets } from './edit-targets.js';
import { openForm } from './open-form.js';
import { answerPrivately } from './private-answer.js';

/**
 * **Edit image** on a message: the form asking how to change its image opens
 * at once (Discord gives 3 s, and reading anything first would eat them); a
 * message without an image gets a short private answer instead.
 */
export async function openMessageEditForm(
  interaction: MessageContextMenuCommandInteraction,
  editTargets: EditTargets,
  logger: Logger,
): Promise<void> {
  const target = interaction.targetMessage;
  if (!messageAttachments(target).some(isImageAttachment)) {
    logger.info({ messageId: target.id }, 'Edit image on a message without an image');
    await answerPrivately(interaction, copy.editCommandNoImage, logger);
    return;
  }
  // Where the bot is not, the form's answer cannot fetch the message: it is kept from the command.
  if (interactionOnly(interaction.authorizingIntegrationOwners)) editTargets.remember(interaction.id, target);
  const customId = formId({ kind: 'message', openedBy: interaction.id, messageId: target.id });
  await openForm(interaction, editModal(customId, editForm(customId)), logger);
}
