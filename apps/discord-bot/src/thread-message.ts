import type { AttachmentRef, ThreadMessage } from '@genbot/core/surface';
import { MessageFlags, type Attachment, type Message } from 'discord.js';
import { encodeLocation } from './download.js';
import { cachedNames, plainText } from './mentions.js';

/** The fields of a discord.js attachment we rely on. */
export type AttachmentData = Pick<
  Attachment,
  'id' | 'url' | 'name' | 'contentType' | 'size' | 'width' | 'height' | 'ephemeral' | 'duration' | 'waveform'
>;

/** The message an attachment is on: fetched again when its signed URL has expired. */
export interface AttachmentSource {
  channelId: string;
  messageId: string;
  /** The message is a voice message (its one attachment is the recording). */
  isVoiceMessage: boolean;
}

/**
 * Never a source of images: an ephemeral attachment (gone once its message
 * is), or the audio of a voice message.
 */
function skipped(attachment: AttachmentData, source: AttachmentSource | undefined): boolean {
  return (
    attachment.ephemeral ||
    attachment.waveform !== null ||
    attachment.duration !== null ||
    source?.isVoiceMessage === true
  );
}

/**
 * The declared type; without one, Discord's pixel dimensions (which it gives
 * for images and videos only) still mark it as a picture, and core decides
 * from the downloaded bytes what it really is.
 */
function declaredType(attachment: AttachmentData): string | undefined {
  if (attachment.contentType !== null && attachment.contentType !== '') return attachment.contentType;
  return attachment.width !== null && attachment.height !== null ? 'image/*' : undefined;
}

/** Our opaque attachment ID holds its URL and where to fetch a fresh one: that is all `download` needs. */
export function toAttachmentRef(attachment: AttachmentData, source?: AttachmentSource): AttachmentRef {
  const type = declaredType(attachment);
  return {
    id: encodeLocation({
      url: attachment.url,
      ...(source === undefined ? {} : { channelId: source.channelId, messageId: source.messageId }),
      attachmentId: attachment.id,
    }),
    name: attachment.name,
    ...(type === undefined ? {} : { mimeType: type }),
    size: attachment.size,
  };
}

/** A message's attachments that may be images to edit. */
export function messageAttachments(message: Message): AttachmentRef[] {
  const source = {
    channelId: message.channelId,
    messageId: message.id,
    isVoiceMessage: message.flags.has(MessageFlags.IsVoiceMessage),
  };
  return message.attachments
    .filter((attachment) => !skipped(attachment, source))
    .map((attachment) => toAttachmentRef(attachment, source));
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
    attachments: messageAttachments(message),
  };
}
