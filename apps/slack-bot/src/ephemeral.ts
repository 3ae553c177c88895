import { sayPrivately } from '@genbot/core/chat';
import type { Logger } from '@genbot/core/log';
import type { HandlerContext } from './handlers/context.js';

/**
 * A private answer in a channel (or thread) that only `user` sees: a refusal.
 * It takes its turn among the channel's private messages (core's budget), so
 * a flood of refusals keeps Slack's pace and backs off when Slack asks.
 */
export async function answerPrivately(
  context: Pick<HandlerContext, 'surface' | 'runtime'>,
  where: { channel: string; threadTs?: string | undefined; user: string },
  markdown: string,
  logger: Logger,
): Promise<void> {
  const deps = { surface: context.surface, channels: context.runtime.channels, logger };
  const target = { channelId: where.channel, threadId: where.threadTs };
  await sayPrivately(deps, target, where.user, markdown, 'refusal').catch((error: unknown) =>
    logger.warn({ err: error }, 'could not answer privately'),
  );
}
