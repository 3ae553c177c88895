import type { App } from '@slack/bolt';
import { parseDirectMessage } from '../parse-direct-message.js';
import { titleConversation } from '../conversation-title.js';
import { firstDelivery, submitTurn } from './conversation-turn.js';
import type { ListenerContext } from './context.js';

/**
 * `message.im`: in a DM with the bot every new message from the person is a
 * turn, no mention needed, top-level or in a thread. It is answered in its
 * thread (a top-level message starts one, as Slack's agent view shows DMs),
 * and the thread is the conversation, as a mention's is in a channel. Bolt's
 * `Assistant` listener sees threaded DM messages only: this is the way in.
 * Nothing of what the person wrote is logged.
 */
export function registerDirectMessages(app: App, listening: ListenerContext): void {
  const { logger } = listening;
  app.event('message', async ({ body, context: origin }) => {
    const context = await listening.at(origin);
    const parsed = parseDirectMessage(body, context.identity);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'direct message event in an unexpected shape; ignored');
      return;
    }
    const message = parsed.value;
    if (message === undefined) return;
    if (!(await firstDelivery(context, message))) return;
    const log = logger.child({ channel: message.channel, ts: message.ts });
    if (await submitTurn(context, message, message.userId, log, 'direct message')) {
      // Named from its first request's words, no model call: the agent view's session, or the assistant view's thread.
      await titleConversation(context, message);
    }
  });
}
