import { randomUUID } from 'node:crypto';
import { imagineInputProblem } from '@genbot/core/chat';
import { copy } from '@genbot/core/copy';
import type { App } from '@slack/bolt';
import { toMrkdwn } from '../mrkdwn.js';
import { parseImagineCommand } from '../parse-command.js';
import type { ListenerContext } from './context.js';

/**
 * `/imagine PROMPT [--ar W:H]`: acknowledged at once; a missing prompt gets
 * the usage line only the user sees; otherwise it becomes a job whose worker
 * posts the progress message in the channel and uploads the images there.
 * No message triggers it, so nothing can be deleted to cancel it: only
 * shutdown stops it.
 */
export function registerImagineCommand(app: App, listening: ListenerContext): void {
  const { logger, jobs } = listening;
  app.command('/imagine', async ({ command, ack, context: origin }) => {
    const parsed = parseImagineCommand(command);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, '/imagine command in an unexpected shape');
      await ack({ response_type: 'ephemeral', text: toMrkdwn(copy.unreadableCommand) });
      return;
    }
    const { channelId, userId, workspaceId, triggerId, prompt, aspectRatio, missingAspectRatio } = parsed.value;
    // A person's own mistake is answered to them alone, before anything is recorded or started.
    const mistake =
      missingAspectRatio && prompt.trim() !== ''
        ? copy.missingAspectRatio
        : imagineInputProblem({ target: { channelId }, prompt, aspectRatio });
    if (mistake !== undefined) {
      await ack({ response_type: 'ephemeral', text: toMrkdwn(mistake) });
      return;
    }
    const log = logger.child({ channel: channelId, command: '/imagine' });
    // The model (and the progress message) read names, not Slack's <@U…> markup.
    const { surface } = await listening.at(origin);
    const readablePrompt = await surface.readable(prompt);
    const result = await jobs.intake.submit({
      // trigger_id is unique per invocation; a body without one (hand-built) still gets a unique job.
      id: `slack-cmd-${triggerId ?? randomUUID()}`,
      platform: 'slack',
      workspaceId,
      channelId,
      userId,
      input: {
        kind: 'imagine',
        imagine: { target: { channelId }, prompt: readablePrompt, aspectRatio, userId },
      },
    });
    log.info({ accepted: result.accepted }, '/imagine submitted');
    await ack(result.accepted ? undefined : { response_type: 'ephemeral', text: toMrkdwn(result.answer) });
  });
}
