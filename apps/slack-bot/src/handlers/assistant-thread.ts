import type { App } from '@slack/bolt';
import { rememberAssistantThread } from '../conversation-title.js';
import { parseAssistantThreadStarted } from '../parse-ai-app-events.js';
import { suggestPrompts } from '../suggested-prompts.js';
import type { ListenerContext } from './context.js';

/**
 * `assistant_thread_started`, the older assistant view opening a thread in
 * the person's DM with the app: remembered, so its first message names it
 * (`titleConversation`), and given the suggested prompts. The messages
 * written in it are DM turns like any other.
 */
export function registerAssistantThreads(app: App, listening: ListenerContext, options: { tools: boolean }): void {
  const { logger } = listening;
  app.event('assistant_thread_started', async ({ body, context: origin }) => {
    const parsed = parseAssistantThreadStarted(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'assistant_thread_started event in an unexpected shape; ignored');
      return;
    }
    const thread = parsed.value;
    const log = logger.child({ channel: thread.channel, threadTs: thread.threadTs });
    try {
      const context = await listening.at(origin);
      await rememberAssistantThread(context, thread.channel, thread.threadTs);
      await suggestPrompts(context.client, { channel: thread.channel, threadTs: thread.threadTs }, options.tools);
      log.debug('assistant thread started; suggested prompts set');
    } catch (error) {
      log.warn({ err: error }, 'could not set up the assistant thread');
    }
  });
}
