import { handleMention, type ChatTarget } from '@genbot/core';
import type { App } from '@slack/bolt';
import { parseAppMention } from '../parse-app-mention.js';
import { triggerKey } from '../trigger-key.js';
import { SHUTTING_DOWN, type HandlerContext } from './context.js';

/**
 * `app_mention`, in a channel or a thread: answered in the mention's thread
 * (an image edit when an image is at hand, else a conversation). Bolt has
 * acknowledged the event already; the work runs in the background, until it
 * ends, the bot shuts down or the mention is deleted.
 */
export function registerAppMention(app: App, context: HandlerContext): void {
  const { surface, work, cancellations, logger, seenEvents, seenMessages, deps } = context;
  app.event('app_mention', async ({ body }) => {
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
    if (mention.eventId !== undefined && !seenEvents.firstSeen(mention.eventId)) {
      logger.info({ eventId: mention.eventId }, 'event delivered again; already handled');
      return;
    }
    if (!seenMessages.firstSeen(`${mention.channel}:${mention.ts}`)) {
      logger.info({ channel: mention.channel, ts: mention.ts }, 'mention already answered');
      return;
    }
    const target: ChatTarget = { channelId: mention.channel, threadId: mention.threadTs };
    const log = logger.child({ channel: mention.channel, ts: mention.ts });
    const userId = mention.userId;
    const accepted = work.run(
      (shutdown) =>
        cancellations.run(
          triggerKey(mention.channel, mention.ts),
          async (signal) => {
            const [trigger] = await surface.toThreadMessages([{ ts: mention.ts, user: userId, text: mention.text, files: mention.files }]);
            if (trigger === undefined) return;
            const outcome = await handleMention({ target, trigger, userId }, { ...deps, logger: log }, signal);
            log.info({ outcome }, 'mention handled');
          },
          shutdown,
        ),
      (error) => log.error({ err: error }, 'mention failed'),
    );
    if (!accepted) {
      await surface.post(target, SHUTTING_DOWN).catch((error: unknown) => log.warn({ err: error }, 'could not say we are restarting'));
    }
  });
}
