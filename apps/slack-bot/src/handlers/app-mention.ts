import type { App } from '@slack/bolt';
import { parseAppMention } from '../parse-app-mention.js';
import { firstDelivery, submitTurn } from './conversation-turn.js';
import type { ListenerContext } from './context.js';

/**
 * `app_mention`, in a channel or a thread: answered in the mention's thread
 * by a conversation job (its id is Slack's event id, so a redelivery is the
 * same job). Bolt has acknowledged the event already; the worker runs the job
 * until it ends, the bot shuts down or the mention is deleted.
 */
export function registerAppMention(app: App, listening: ListenerContext): void {
  const { logger } = listening;
  app.event('app_mention', async ({ body, context: origin }) => {
    const parsed = parseAppMention(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'app_mention event in an unexpected shape; ignored');
      return;
    }
    const mention = parsed.value;
    if (mention.fromBot || mention.userId === undefined) {
      logger.debug({ channel: mention.channel, ts: mention.ts }, 'mention by a bot; not answered');
      return;
    }
    if (!(await firstDelivery(listening, mention))) return;
    const context = await listening.at(origin);
    const log = logger.child({ channel: mention.channel, ts: mention.ts });
    await submitTurn(context, mention, mention.userId, log, 'mention');
  });
}
