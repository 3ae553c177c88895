import type { UsageReporter } from '@genbot/core/jobs';
import type { App } from '@slack/bolt';
import { homeView } from '../home-view.js';
import { parseAppHomeOpened } from '../parse-ai-app-events.js';
import { slackCall } from '../slack-errors.js';
import { suggestPrompts } from '../suggested-prompts.js';
import type { ListenerContext } from './context.js';

/**
 * `app_home_opened`: on the Messages tab (how the agent view starts a
 * conversation) the suggested prompts, for the whole DM (no thread); on the
 * Home tab, the person's Home tab published afresh, their usage as it is now.
 * Either is best effort: a refusal is logged, and the person can still write.
 */
export function registerAppHome(
  app: App,
  listening: Pick<ListenerContext, 'at' | 'logger'>,
  options: { usage: UsageReporter; tools: boolean },
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
        const usage = await options.usage.answer({
          platform: 'slack',
          workspaceId: opened.workspaceId,
          userId: opened.userId,
        });
        await slackCall('views.publish', () =>
          client.views.publish({ user_id: opened.userId, view: homeView({ usage, tools: options.tools }) }),
        );
        log.debug('Home tab published');
      }
    } catch (error) {
      log.warn({ err: error }, 'could not answer the opening of the app');
    }
  });
}
