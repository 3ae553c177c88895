import type { Logger } from '@genbot/core/log';
import type { ButtonInteraction } from 'discord.js';
import { discordCall } from '../discord-errors.js';
import { INTERACTION_TOKEN_MS } from '../imagine-job.js';
import { interactionJobId } from '../job-ids.js';
import { editModal } from '../results/edit-form.js';
import { formId } from '../results/form-ids.js';
import type { IngressContext } from './context.js';
import { shownBy } from '../user-install.js';
import { openForm } from './open-form.js';
import { tellBeforeTokenEnds } from './token-end.js';
import { answerPrivately, answerRefusal, publicUnlessForbidden } from './private-answer.js';
import { settingsChannelOf } from '../settings-channel.js';

/**
 * A press of a result's button, checked (on the bot's own result, in its
 * channel) and admitted by core before Discord is answered: Edit opens its form at once; a job that starts gets a public
 * deferred reply (a new message under the pressed one, which keeps its images
 * and buttons), deferred before it is queued, which its worker fills with progress and then the result; a
 * refusal (a stale, forged or copied id, the same button still running for this
 * person, a quota) is private.
 */
export async function pressResultButton(press: ButtonInteraction, context: IngressContext, logger: Logger) {
  const answer = await context.presses.press(
    {
      jobId: interactionJobId(press.id),
      buttonId: press.customId,
      platform: 'discord',
      workspaceId: press.guildId ?? undefined,
      channelId: press.channelId,
      settingsChannelId: settingsChannelOf(press.channel),
      userId: press.user.id,
      target: { channelId: press.channelId },
      interaction: { token: press.token, expiresAt: new Date(press.createdTimestamp + INTERACTION_TOKEN_MS) },
      message: { id: press.message.id, bySelf: press.message.author.id === press.client.user.id },
      shown: shownBy(press, press.message),
    },
    {
      beforeQueue: async () => {
        await discordCall(() => press.deferReply(publicUnlessForbidden(press)));
      },
    },
  );
  switch (answer.kind) {
    case 'form': {
      const customId = formId({ kind: 'button', openedBy: press.id, buttonId: answer.form.state });
      await openForm(press, editModal(customId, answer.form), logger);
      return;
    }
    case 'started':
      // One interaction id is one job: a repeated delivery was answered the first time.
      if (answer.duplicate) return;
      logger.info({ position: answer.position }, 'result button pressed');
      tellBeforeTokenEnds({ interaction: press, jobId: interactionJobId(press.id), intake: context.intake, logger });
      return;
    case 'refused':
      await answerRefusal(press, answer.answer, logger);
      return;
    case 'invalid':
      await answerPrivately(press, answer.error, logger);
      return;
  }
}
