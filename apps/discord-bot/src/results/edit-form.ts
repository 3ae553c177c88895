import type { EditForm } from '@genbot/core/jobs';
import {
  type APIModalInteractionResponseCallbackData,
  LabelBuilder,
  ModalBuilder,
  type ModalSubmitInteraction,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';

/** The form's one text input. */
const INSTRUCTION = 'instruction';

/**
 * Core's edit form as a Discord modal: one paragraph input for the
 * instruction, required (Discord keeps Submit disabled while it is empty).
 * `customId` is what comes back with the submit.
 */
export function editModal(customId: string, form: EditForm): APIModalInteractionResponseCallbackData {
  return new ModalBuilder()
    .setCustomId(customId)
    .setTitle(form.title)
    .addLabelComponents(
      new LabelBuilder()
        .setLabel(form.label)
        .setTextInputComponent(
          new TextInputBuilder()
            .setCustomId(INSTRUCTION)
            .setStyle(TextInputStyle.Paragraph)
            .setPlaceholder(form.placeholder)
            .setRequired(true)
            .setMaxLength(form.maxLength),
        ),
    )
    .toJSON();
}

/** The instruction a submitted edit form carries, as typed; empty for a form without that input (an older deploy's). */
export function submittedInstruction(submit: ModalSubmitInteraction): string {
  try {
    return submit.fields.getTextInputValue(INSTRUCTION);
  } catch {
    return '';
  }
}
