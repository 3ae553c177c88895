import type { CachedMessage } from '@genbot/core/chat';
import { toAttachments } from './parse-files.js';
import type { BotIdentity, SlackThreadMessage } from './parse-thread.js';

/** A Slack message as the thread cache keeps it: markup and all, authorship decided once. */
export function toCachedMessage(message: SlackThreadMessage, identity: BotIdentity): CachedMessage {
  const isSelf = message.bot_id === identity.botId || message.user === identity.userId;
  const isBot = isSelf || message.bot_id !== undefined || message.subtype === 'bot_message';
  const botName = message.bot_profile?.name ?? message.username;
  return {
    id: message.ts,
    authorId: message.user ?? message.bot_id ?? 'unknown',
    ...(isBot && botName !== undefined ? { authorName: botName } : {}),
    isBot,
    isSelf,
    text: message.text,
    attachments: toAttachments(message.files),
  };
}
