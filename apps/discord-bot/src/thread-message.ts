import type { AttachmentRef, ThreadMessage } from '@genbot/core';
import type { Attachment, Message } from 'discord.js';
import { cachedNames, plainText } from './mentions.js';

/** The fields of a discord.js attachment we rely on. */
export type AttachmentData = Pick<Attachment, 'url' | 'name' | 'contentType' | 'size'>;

/** Our opaque attachment id is its download URL: that is all `download` needs. */
export function toAttachmentRef(attachment: AttachmentData): AttachmentRef {
  return {
    id: attachment.url,
    name: attachment.name,
    ...(attachment.contentType === null ? {} : { mimeType: attachment.contentType }),
    size: attachment.size,
  };
}

/** A discord.js message as core sees it: author, plain text, attachments. */
export function toThreadMessage(message: Message, selfId: string): ThreadMessage {
  const { mentions, client, guild } = message;
  const cached = cachedNames(client, guild);
  const text = plainText(message.content, selfId, {
    user: (id) => mentions.members?.get(id)?.displayName ?? mentions.users.get(id)?.displayName ?? cached.user(id),
    role: (id) => mentions.roles.get(id)?.name ?? cached.role(id),
    channel: cached.channel,
  });
  return {
    id: message.id,
    author: {
      id: message.author.id,
      name: message.member?.displayName ?? message.author.displayName,
      isBot: message.author.bot,
      isSelf: message.author.id === selfId,
    },
    text,
    attachments: message.attachments.map(toAttachmentRef),
  };
}
