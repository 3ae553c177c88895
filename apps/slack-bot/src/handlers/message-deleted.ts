import type { App } from '@slack/bolt';
import { parseMessageDeleted } from '../parse-message-deleted.js';
import { triggerKey } from '../trigger-key.js';
import type { HandlerContext } from './context.js';

/**
 * `message` events (the message.* subscriptions): a deleted message stops the
 * work it started, if any is still running, here or (REDIS_URL) in the worker
 * running it, and a job of it not yet started never starts. Other messages are
 * answered elsewhere, if at all: mentions through `app_mention`, DMs in direct-message.ts.
 */
export function registerMessageDeleted(app: App, context: Pick<HandlerContext, 'runtime' | 'logger'>): void {
  const { runtime, logger } = context;
  app.event('message', async ({ body }) => {
    const parsed = parseMessageDeleted(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'message event in an unexpected shape; ignored');
      return;
    }
    const deleted = parsed.value;
    if (deleted === undefined) return;
    const where = { channel: deleted.channel, ts: deleted.deletedTs };
    try {
      if (await runtime.cancelEverywhere(triggerKey(deleted.channel, deleted.deletedTs)))
        logger.info(where, 'trigger message deleted; its work is cancelled');
    } catch (error) {
      logger.warn({ err: error, ...where }, 'trigger message deleted; its work could not be cancelled');
    }
  });
}
