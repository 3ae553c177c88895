import { copy } from '@genbot/core/copy';
import type { Logger } from '@genbot/core/log';
import { type Message, MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import { DiscordCallError, discordCall } from '../discord-errors.js';
import { submittedInstruction } from '../results/edit-form.js';
import { type FormTarget, parseFormId } from '../results/form-ids.js';
import { INTERACTION_TOKEN_MS } from '../imagine-job.js';
import { formJobId } from '../job-ids.js';
import { messageEditJob } from '../results/message-edit-job.js';
import type { IngressContext } from './context.js';
import { answerPrivately, answerRefusal, publicUnlessForbidden } from './private-answer.js';
import { answersMustBePrivate, interactionOnly, shownBy } from '../user-install.js';
import { tellBeforeTokenEnds } from './token-end.js';
import { settingsChannelOf } from '../settings-channel.js';

const UNKNOWN_MESSAGE = 10008;

/** The message an Edit image form is about, as it is now; undefined once it is deleted. */
async function targetMessage(submit: ModalSubmitInteraction, messageId: string): Promise<Message | undefined> {
  const channel = submit.channel ?? (await discordCall(() => submit.client.channels.fetch(submit.channelId ?? '')));
  if (channel === null || !channel.isTextBased()) return undefined;
  try {
    return await discordCall(() => channel.messages.fetch({ message: messageId, force: true }));
  } catch (error) {
    if (error instanceof DiscordCallError && error.code === UNKNOWN_MESSAGE) return undefined;
    throw error;
  }
}

/**
 * The Edit image form: an edit of the message's image as a job. A refusal,
 * or a second submit of the same form (one job), is told privately; an
 * admitted job gets a private deferred response before it is queued, which
 * its worker fills with the person's progress, while the image itself goes
 * to the channel.
 */
async function submitMessageEdit(
  submit: ModalSubmitInteraction,
  form: Extract<FormTarget, { kind: 'message' }>,
  instruction: string,
  context: IngressContext,
  logger: Logger,
): Promise<void> {
  // Where the bot is not (a user install), the message came with the command, and the result can
  // only be the form's own answer: public unless the server forbids external apps.
  const userInstall = interactionOnly(submit.authorizingIntegrationOwners);
  const target = userInstall ? context.editTargets.take(form.openedBy) : await targetMessage(submit, form.messageId);
  if (target === undefined) {
    await answerPrivately(submit, userInstall ? copy.editFormForgotten : copy.editCommandMessageGone, logger);
    return;
  }
  const job = messageEditJob({ submit, openedBy: form.openedBy, target, instruction });
  const privately = !userInstall || answersMustBePrivate(submit);
  const result = await context.intake.submit(job, {
    beforeQueue: async () => {
      await discordCall(() => submit.deferReply(privately ? { flags: MessageFlags.Ephemeral } : {}));
    },
  });
  if (!result.accepted) {
    logger.info({ jobId: job.id }, 'Edit image form refused');
    await answerRefusal(submit, result.answer, logger);
    return;
  }
  if (result.duplicate) {
    logger.info({ jobId: job.id }, 'Edit image form submitted again');
    await answerPrivately(submit, copy.formAlreadySent, logger);
    return;
  }
  logger.info({ jobId: job.id }, 'Edit image form submitted');
  tellBeforeTokenEnds({ interaction: submit, jobId: job.id, intake: context.intake, logger });
}

/**
 * The form of a result's Edit button: core checks it (the instruction, the
 * version it edits, a second submit) and starts the edit; its public deferred
 * reply, sent before the job is queued, becomes the new result, under the
 * result whose button was pressed.
 */
async function submitButtonEdit(
  submit: ModalSubmitInteraction,
  form: Extract<FormTarget, { kind: 'button' }>,
  instruction: string,
  context: IngressContext,
  logger: Logger,
): Promise<void> {
  const channelId = submit.channelId ?? '';
  const answer = await context.presses.submitForm(
    {
      jobId: formJobId(form.openedBy),
      state: form.buttonId,
      instruction,
      platform: 'discord',
      workspaceId: submit.guildId ?? undefined,
      channelId,
      settingsChannelId: settingsChannelOf(submit.channel),
      userId: submit.user.id,
      target: { channelId },
      interaction: { token: submit.token, expiresAt: new Date(submit.createdTimestamp + INTERACTION_TOKEN_MS) },
      messageId: submit.message?.id,
      shown: submit.message === null ? undefined : shownBy(submit, submit.message),
    },
    {
      beforeQueue: async () => {
        await discordCall(() => submit.deferReply(publicUnlessForbidden(submit)));
      },
    },
  );
  switch (answer.kind) {
    case 'started':
      logger.info({ position: answer.position }, 'edit form submitted');
      tellBeforeTokenEnds({ interaction: submit, jobId: formJobId(form.openedBy), intake: context.intake, logger });
      return;
    case 'refused':
      await answerRefusal(submit, answer.answer, logger);
      return;
    case 'invalid':
      await answerPrivately(submit, answer.error, logger);
      return;
    case 'form':
      throw new Error('a form submit cannot open another form');
  }
}

/** A submitted edit form: read at the edge, checked, and handed on as a job. */
export async function submitForm(submit: ModalSubmitInteraction, context: IngressContext, logger: Logger) {
  const form = parseFormId(submit.customId);
  if (form === undefined) {
    logger.info('a form this bot did not make');
    await answerPrivately(submit, copy.buttonGone, logger);
    return;
  }
  const instruction = submittedInstruction(submit).trim();
  if (instruction === '') {
    await answerPrivately(submit, copy.emptyInstruction, logger);
    return;
  }
  if (form.kind === 'message') {
    await submitMessageEdit(submit, form, instruction, context, logger);
    return;
  }
  await submitButtonEdit(submit, form, instruction, context, logger);
}
