import type { App } from '@slack/bolt';
import { toMrkdwn } from '../mrkdwn.js';
import type { WorkspaceRights } from '../settings-rights.js';
import type { SlackJobs } from './context.js';
import type { HandlerContext } from './context.js';

/** `/usage`: this user's images and chat tokens today and this month, and what is left of each daily quota; only they see it. */
export function registerUsageCommand(
  app: App,
  context: Pick<HandlerContext, 'logger'>,
  jobs: SlackJobs,
  rights: WorkspaceRights,
): void {
  app.command('/usage', async ({ command, ack, client }) => {
    const userId = command.user_id;
    // Those who may change the workspace's settings see its use beside their own.
    const admin = (await rights(client, command.team_id, userId)).workspace;
    const answer = await jobs.usage.answer({ platform: 'slack', workspaceId: command.team_id, userId }, { admin });
    context.logger.info({ user: userId, admin }, '/usage answered');
    await ack({ response_type: 'ephemeral', text: toMrkdwn(answer) });
  });
}
