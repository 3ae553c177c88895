import type { App } from '@slack/bolt';
import { toMrkdwn } from '../mrkdwn.js';
import type { SlackJobs } from './context.js';
import type { HandlerContext } from './context.js';

/** `/usage`: this user's images and chat tokens today and this month, and what is left of each daily quota; only they see it. */
export function registerUsageCommand(app: App, context: Pick<HandlerContext, 'logger'>, jobs: SlackJobs): void {
  app.command('/usage', async ({ command, ack }) => {
    const answer = await jobs.usage.answer({
      platform: 'slack',
      workspaceId: command.team_id,
      userId: command.user_id,
    });
    context.logger.info({ user: command.user_id }, '/usage answered');
    await ack({ response_type: 'ephemeral', text: toMrkdwn(answer) });
  });
}
