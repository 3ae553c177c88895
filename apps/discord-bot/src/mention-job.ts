import type { ThreadMessage } from '@genbot/core/surface';
import type { ChatJob } from '@genbot/core/jobs';
import type { Message } from 'discord.js';
import { isDirectMessage } from './direct-messages.js';
import { messageJobId } from './job-ids.js';
import { toThreadMessage } from './thread-message.js';
import { settingsChannelOf } from './settings-channel.js';

/** The message a mention replies to, and whether that one replies to another in the channel. */
export interface ReferencedMessage {
  message: ThreadMessage;
  isReply: boolean;
}

/**
 * The reply chain that ends at the mention, when ingress saw all of it: the
 * mention alone, or the message it replies to (in the same channel) and the
 * mention, when that one replies to nothing in the channel. A reference
 * ingress could not read is left for the worker to try.
 */
function knownChain(
  message: Message,
  trigger: ThreadMessage,
  referenced: ReferencedMessage | undefined,
): ThreadMessage[] | undefined {
  const reference = message.reference;
  if (reference?.messageId === undefined || reference.channelId !== message.channelId) return [trigger];
  if (referenced === undefined || referenced.isReply) return undefined;
  return [referenced.message, trigger];
}

/**
 * A mention (or a message in a DM) as a job: the message and the one it
 * replies to, as core reads them (text with names, attachments as refs that
 * a worker downloads over REST). Replies keep the answer next to the
 * message. In a thread the thread is the conversation and in a DM its recent
 * messages, which the worker reads; elsewhere the reply chain is, and when it
 * ends at the replied-to message (or at the mention) the job carries it
 * whole, so the worker reads nothing back from Discord. A DM belongs to no
 * server: its usage counts for the person alone (no workspace).
 */
export function mentionJob(message: Message, selfId: string, referenced: ReferencedMessage | undefined): ChatJob {
  const userId = message.author.id;
  const target = { channelId: message.channelId, threadId: message.id };
  const trigger = toThreadMessage(message, selfId);
  const readByWorker = message.channel.isThread() || isDirectMessage(message.channel);
  const history = readByWorker ? undefined : knownChain(message, trigger, referenced);
  return {
    id: messageJobId(message.id),
    platform: 'discord',
    workspaceId: message.guildId ?? undefined,
    channelId: message.channelId,
    settingsChannelId: settingsChannelOf(message.channel),
    threadId: message.id,
    userId,
    input: {
      kind: 'mention',
      mention: {
        target,
        trigger,
        referenced: referenced?.message,
        ...(history === undefined ? {} : { history }),
        userId,
      },
    },
  };
}
