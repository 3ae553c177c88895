import type { ThreadMessage } from '@genbot/core/chat';
import type { ChatJob } from '@genbot/core/work';
import type { Message } from 'discord.js';
import { messageJobId } from './job-ids.js';
import { toThreadMessage } from './thread-message.js';

/**
 * A mention as a job: the mention and the message it replies to, as core
 * reads them (text with names, attachments as refs that a worker downloads
 * over REST). Replies keep the answer next to the mention; outside threads
 * the reply chain is the conversation.
 */
export function mentionJob(message: Message, selfId: string, referenced: ThreadMessage | undefined): ChatJob {
  const userId = message.author.id;
  const target = { channelId: message.channelId, threadId: message.id };
  return {
    id: messageJobId(message.id),
    platform: 'discord',
    workspaceId: message.guildId ?? undefined,
    channelId: message.channelId,
    threadId: message.id,
    userId,
    input: { kind: 'mention', mention: { target, trigger: toThreadMessage(message, selfId), referenced, userId } },
  };
}
