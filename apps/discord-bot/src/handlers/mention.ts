import { handleMention, type Logger, type ThreadMessage } from '@genbot/core';
import type { Message } from 'discord.js';
import type { ChannelSurface } from '../channel-surface.js';
import { toChatError } from '../discord-errors.js';
import { toThreadMessage } from '../thread-message.js';
import { triggerKey } from '../trigger-key.js';
import { RESTARTING, type HandlerContext } from './context.js';

/** People's messages that address the bot: a mention, or a reply to the bot with the ping left on. */
function addressesBot(message: Message, selfId: string): boolean {
  // Bots (this one included) and webhooks never trigger a reply: two bots would answer each other forever.
  if (message.author.bot || message.webhookId !== null || message.system) return false;
  return message.mentions.users.has(selfId);
}

/** The message a reply refers to; a deleted or unreadable one just means no reference. */
async function referencedMessage(message: Message, selfId: string, logger: Logger): Promise<ThreadMessage | undefined> {
  if (message.reference?.messageId === undefined) return undefined;
  try {
    return toThreadMessage(await message.fetchReference(), selfId);
  } catch (error) {
    logger.warn({ err: toChatError(error) }, 'could not read the replied-to message');
    return undefined;
  }
}

/**
 * A mention in a channel or thread: answered as a reply to it (a conversation,
 * or an image edit), until that ends, the bot shuts down or the mention is deleted.
 */
export function handleMessage(message: Message, surface: ChannelSurface, context: HandlerContext): void {
  const selfId = message.client.user.id;
  if (!addressesBot(message, selfId)) return;
  const logger = context.logger.child({ channelId: message.channelId, messageId: message.id });
  const trigger = toThreadMessage(message, selfId);
  // Replies to the mention keep the answer next to it; outside threads the reply chain is the conversation.
  const target = { channelId: message.channelId, threadId: message.id };
  const accepted = context.work.run(
    (shutdown) =>
      context.cancellations.run(
        triggerKey(message.id),
        async (signal) => {
          logger.info('mention');
          const referenced = await referencedMessage(message, selfId, logger);
          const input = { target, trigger, referenced, userId: message.author.id };
          await handleMention(input, context.depsFor(surface, logger), signal);
        },
        shutdown,
      ),
    (error) => logger.error({ err: toChatError(error) }, 'could not answer the mention'),
  );
  if (!accepted) {
    message.reply(RESTARTING).catch((error: unknown) => logger.warn({ err: toChatError(error) }, 'could not say we are restarting'));
  }
}
