import type { UsageReporter } from '@genbot/core/jobs';
import type { App } from '@slack/bolt';
import { homeView } from '../home-view.js';
import { parseAppHomeOpened } from '../parse-ai-app-events.js';
import type { WorkspaceRights } from '../settings-rights.js';
import { slackCall } from '../slack-errors.js';
import { suggestPrompts } from '../suggested-prompts.js';
import type { ListenerContext } from './context.js';

/**
 * `app_home_opened`: on the Messages tab (how the agent view starts a
 * conversation) the suggested prompts, for the whole DM (no thread); on the
 * Home tab, the person's Home tab published afresh, their usage as it is now
 * (and for a workspace admin, the way into the workspace's settings).
 * Either is best effort: a refusal is logged, and the person can still write.
 */
export function registerAppHome(
  app: App,
  listening: Pick<ListenerContext, 'at' | 'logger'>,
  options: { usage: UsageReporter; tools: boolean; rights: WorkspaceRights },
): void {
  const { logger } = listening;
  app.event('app_home_opened', async ({ body, context: origin }) => {
    const parsed = parseAppHomeOpened(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'app_home_opened event in an unexpected shape; ignored');
      return;
    }
    const opened = parsed.value;
    const log = logger.child({ user: opened.userId, tab: opened.tab });
    try {
      const { client } = await listening.at(origin);
      if (opened.tab === 'messages') {
        await suggestPrompts(client, { channel: opened.channel }, options.tools);
        log.debug('suggested prompts set');
      } else if (opened.tab === 'home') {
        const { workspaceId, userId } = opened;
        // Those who may change the workspace's settings get the way into them, and its use beside their own.
        const admin = workspaceId !== undefined && (await options.rights(client, workspaceId, userId)).workspace;
        const usage = await options.usage.answer({ platform: 'slack', workspaceId, userId }, { admin });
        const view = homeView({
          usage,
          tools: options.tools,
          ...(admin && { settings: { channel: opened.channel } }),
        });
        await slackCall('views.publish', () => client.views.publish({ user_id: userId, view }));
        log.debug('Home tab published');
      }
    } catch (error) {
      log.warn({ err: error }, 'could not answer the opening of the app');
    }
  });
}
