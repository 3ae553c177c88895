import type { App } from '@slack/bolt';
import { parseMessageDeleted } from '../parse-message-deleted.js';
import { triggerKey } from '../trigger-key.js';
import type { HandlerContext } from './context.js';

/**
 * `message` events (the message.* subscriptions): a deleted message stops the
 * work it started, if any is still running. Every other message is ignored:
 * only mentions are answered, through `app_mention`.
 */
export function registerMessageDeleted(app: App, context: Pick<HandlerContext, 'cancellations' | 'logger'>): void {
  const { cancellations, logger } = context;
  app.event('message', async ({ body }) => {
    const parsed = parseMessageDeleted(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'message event in an unexpected shape; ignored');
      return;
    }
    const deleted = parsed.value;
    if (deleted === undefined) return;
    if (cancellations.cancel(triggerKey(deleted.channel, deleted.deletedTs))) {
      logger.info({ channel: deleted.channel, ts: deleted.deletedTs }, 'trigger message deleted; its work is cancelled');
    }
  });
}
