import type { App } from '@slack/bolt';
import { toCachedMessage } from '../cached-message.js';
import { parseThreadEvent } from '../parse-message-event.js';
import type { ListenerContext } from './context.js';

/**
 * `message` events (the message.* subscriptions, the bot's own posts and
 * edits among them) keep the thread cache, so replies rarely need
 * conversations.replies, which Slack limits hard for apps outside the
 * Marketplace. Needs Bolt's `ignoreSelf: false`: the bot's own messages are
 * part of every conversation.
 */
export function registerThreadEvents(app: App, listening: Pick<ListenerContext, 'at' | 'logger'>): void {
  const { logger } = listening;
  app.event('message', async ({ body, context: origin }) => {
    const parsed = parseThreadEvent(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'message event in an unexpected shape; not cached');
      return;
    }
    const event = parsed.value;
    if (event === undefined) return;
    const thread = { channelId: event.channel, threadId: event.threadTs };
    try {
      const { threads, identity } = await listening.at(origin);
      if (event.kind === 'deleted') await threads.forget(thread, event.ts);
      else await threads.observe(thread, toCachedMessage(event.message, identity));
    } catch (error) {
      logger.warn({ err: error, channel: event.channel }, 'could not keep a message in the thread cache');
    }
  });
}
