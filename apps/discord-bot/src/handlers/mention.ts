import type { Logger } from '@genbot/core/log';
import type { Message } from 'discord.js';
import { isDirectMessage } from '../direct-messages.js';
import { toChatError } from '../discord-errors.js';
import { mentionJob, type ReferencedMessage } from '../mention-job.js';
import { toThreadMessage } from '../thread-message.js';
import { TURNED_AWAY } from '../turned-away.js';
import type { IngressContext } from './context.js';

/**
 * People's messages that address the bot: any in a DM with it, elsewhere a
 * mention, or a reply to the bot with the ping left on.
 */
function addressesBot(message: Message, selfId: string): boolean {
  // Bots (this one included) and webhooks never trigger a reply: two bots would answer each other forever.
  if (message.author.bot || message.webhookId !== null || message.system) return false;
  return isDirectMessage(message.channel) || message.mentions.users.has(selfId);
}

/** The message a reply refers to; a deleted or unreadable one just means no reference. */
async function referencedMessage(
  message: Message,
  selfId: string,
  logger: Logger,
): Promise<ReferencedMessage | undefined> {
  if (message.reference?.messageId === undefined) return undefined;
  try {
    const referenced = await message.fetchReference();
    const isReply =
      referenced.reference?.messageId !== undefined && referenced.reference.channelId === message.channelId;
    return { message: toThreadMessage(referenced, selfId), isReply };
  } catch (error) {
    logger.warn({ err: toChatError(error) }, 'could not read the replied-to message');
    return undefined;
  }
}

async function submitMention(message: Message, selfId: string, context: IngressContext, logger: Logger) {
  const job = mentionJob(message, selfId, await referencedMessage(message, selfId, logger));
  const result = await context.intake.submit(job);
  if (result.accepted) {
    // What kind of message, never its words: a DM's stay out of the logs.
    const kind = isDirectMessage(message.channel) ? 'direct message' : 'mention';
    if (!result.duplicate) logger.info({ jobId: job.id }, kind);
    return;
  }
  if (result.reason === 'disabled') {
    await tellPrivately(message, result.answer, context, logger);
    return;
  }
  if (context.notices.shouldSay(message.author.id, message.channelId, result.answer)) {
    logger.info('mention refused');
    await message.reply(result.answer);
    return;
  }
  logger.info('mention refused again: marked, not answered');
  await message.react(TURNED_AWAY);
}

/**
 * A channel where genbot is turned off hears nothing from it: the person is told in a DM, once
 * (as any refusal), and when Discord will not let the bot write to them, not at all.
 */
async function tellPrivately(message: Message, answer: string, context: IngressContext, logger: Logger) {
  if (!context.notices.shouldSay(message.author.id, message.channelId, answer)) {
    logger.info('mention where genbot is off: told before');
    return;
  }
  try {
    await message.author.send(answer);
    logger.info('mention where genbot is off: told in a DM');
  } catch (error) {
    logger.info({ err: toChatError(error) }, 'mention where genbot is off: the person cannot be written to');
  }
}

/**
 * A mention in a channel or thread, or a message in a DM with the bot:
 * parsed into a job and submitted; a refusal is one short reply (its repeats
 * a reaction). The answer, always a conversation (the model may draw or edit
 * through its tools), comes from the job's worker, as a reply to the message.
 */
export function handleMessage(message: Message, context: IngressContext): void {
  const selfId = message.client.user.id;
  if (!addressesBot(message, selfId)) return;
  const logger = context.logger.child({ channelId: message.channelId, messageId: message.id });
  context.turns
    .take()
    .then(() => submitMention(message, selfId, context, logger))
    .catch((error: unknown) => logger.error({ err: toChatError(error) }, 'could not take the mention'));
}
