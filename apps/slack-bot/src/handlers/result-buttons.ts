import { copy } from '@genbot/core/copy';
import type { App } from '@slack/bolt';
import { z } from 'zod';
import { answerPrivately } from '../ephemeral.js';
import { parseBlockActions, parseViewSubmission, type SlackAuthor } from '../parse-interaction.js';
import type { BotIdentity } from '../parse-thread.js';
import { EDIT_FORM_CALLBACK, editFormView, INSTRUCTION_BLOCK } from '../result-blocks.js';
import { slackCall } from '../slack-errors.js';
import type { ListenerContext, SlackJobs } from './context.js';

/** Every button id core makes starts with this; other actions are not ours. */
const OUR_BUTTONS = /^gb1:/;

/** Whether the bot posted a message: its own uploads carry its user id, its other messages its bot id. */
function postedBy(author: SlackAuthor | undefined, identity: BotIdentity): boolean {
  return author !== undefined && (author.userId === identity.userId || author.botId === identity.botId);
}

const expiredTrigger = z.looseObject({ data: z.looseObject({ error: z.literal('expired_trigger_id') }) });

/**
 * The buttons under results and their edit form. A press is acknowledged at
 * once; then core checks it (on the bot's own result, in its channel) and admits it (refusals answered privately in the
 * result's thread), and its job's progress and result go to that thread.
 * Edit opens the form with the press's trigger_id before anything slow; the
 * form is validated on submit (an empty instruction stays in the form as an
 * error), and its job's id comes from the view, so a form sent twice is one job.
 */
export function registerResultButtons(app: App, listening: ListenerContext, jobs: SlackJobs): void {
  const { logger } = listening;

  app.action(OUR_BUTTONS, async ({ ack, body, context: origin }) => {
    await ack();
    const context = await listening.at(origin);
    const { client } = context;
    const parsed = parseBlockActions(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'button press in an unexpected shape');
      return;
    }
    const press = parsed.value;
    const where = { channel: press.channelId, threadTs: press.threadTs, user: press.userId };
    const log = logger.child({ channel: press.channelId, action: 'button' });
    const answer = await jobs.presses.press({
      // trigger_id is unique per press; the action names which button.
      jobId: `slack-act-${press.triggerId}`,
      buttonId: press.actionId,
      platform: 'slack',
      workspaceId: press.workspaceId,
      channelId: press.channelId,
      userId: press.userId,
      target: { channelId: press.channelId, threadId: press.threadTs },
      message: { id: press.messageTs, bySelf: postedBy(press.author, context.identity) },
    });
    log.info({ answer: answer.kind }, 'button pressed');
    if (answer.kind === 'refused') {
      await answerPrivately(context, where, answer.answer, log);
      return;
    }
    if (answer.kind !== 'form') return;
    try {
      await slackCall('views.open', () =>
        client.views.open({
          trigger_id: press.triggerId,
          view: editFormView(answer.form, {
            state: answer.form.state,
            channelId: press.channelId,
            threadTs: press.threadTs,
            messageTs: press.messageTs,
          }),
        }),
      );
    } catch (error) {
      log.warn({ err: error }, 'could not open the edit form');
      const expired = expiredTrigger.safeParse(error).success;
      await answerPrivately(context, where, expired ? copy.formTimedOut : copy.formNotOpened, log);
    }
  });

  app.view(EDIT_FORM_CALLBACK, async ({ ack, body, context: origin }) => {
    const parsed = parseViewSubmission(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'form submission in an unexpected shape');
      await ack({ response_action: 'errors', errors: { [INSTRUCTION_BLOCK]: copy.buttonGone } });
      return;
    }
    const form = parsed.value;
    const log = logger.child({ channel: form.channelId, action: 'edit form' });
    const answer = await jobs.presses.submitForm({
      jobId: `slack-form-${form.viewId}`,
      state: form.state,
      instruction: form.instruction,
      platform: 'slack',
      workspaceId: form.workspaceId,
      channelId: form.channelId,
      userId: form.userId,
      target: { channelId: form.channelId, threadId: form.threadTs },
      messageId: form.messageTs,
    });
    log.info({ answer: answer.kind }, 'edit form submitted');
    if (answer.kind === 'invalid') {
      // Slack shows a field's error as plain text.
      await ack({ response_action: 'errors', errors: { [INSTRUCTION_BLOCK]: answer.error } });
      return;
    }
    await ack();
    if (answer.kind === 'refused') {
      const where = { channel: form.channelId, threadTs: form.threadTs, user: form.userId };
      await answerPrivately(await listening.at(origin), where, answer.answer, log);
    }
  });
}
