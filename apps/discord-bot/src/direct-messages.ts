import type { ThreadMessage } from '@genbot/core/surface';
import { type Channel, ChannelType, type DMChannel, SnowflakeUtil } from 'discord.js';
import { discordCall } from './discord-errors.js';
import { toThreadMessage } from './thread-message.js';

/**
 * A DM's conversation is its recent past, Reply or not (people rarely use
 * Reply in a DM): at most this many messages, the one answered included…
 */
export const DM_CONVERSATION_MESSAGES = 20;
/** …written within this long before it. */
export const DM_CONVERSATION_WINDOW_MS = 60 * 60_000;

/** A DM with the bot, where every message from the person is a turn. */
export function isDirectMessage(channel: Channel): channel is DMChannel {
  return channel.type === ChannelType.DM;
}

/** What the window needs of a message: its id, whose bits hold when it was written. */
export interface Dated {
  id: string;
  createdTimestamp: number;
}

/**
 * The DM's messages that make the conversation of `triggerId`, oldest first:
 * the trigger and those before it, written within the window before it, the
 * last `DM_CONVERSATION_MESSAGES` of them. Measured from the trigger, not the
 * clock, so a job run late (a queue, a restart) sees what the person saw.
 */
export function conversationWindow<T extends Dated>(messages: Iterable<T>, triggerId: string): T[] {
  const trigger = BigInt(triggerId);
  const since = SnowflakeUtil.timestampFrom(triggerId) - DM_CONVERSATION_WINDOW_MS;
  return [...messages]
    .filter((message) => BigInt(message.id) <= trigger && message.createdTimestamp >= since)
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0))
    .slice(-DM_CONVERSATION_MESSAGES);
}

/**
 * The DM's conversation up to the message answered, read over REST alone
 * (`GET /channels/{id}/messages?limit=20&before=…`), so a worker without the
 * gateway reads it as well as the bot that received the message.
 */
export async function readDirectMessages(
  channel: DMChannel,
  triggerId: string,
  selfId: string,
  signal?: AbortSignal,
): Promise<ThreadMessage[]> {
  // `before` leaves out the id it names: one past the trigger's keeps the trigger in.
  const before = (BigInt(triggerId) + 1n).toString();
  const fetched = await discordCall(() => channel.messages.fetch({ limit: DM_CONVERSATION_MESSAGES, before }));
  signal?.throwIfAborted();
  return conversationWindow(fetched.values(), triggerId).map((message) => toThreadMessage(message, selfId));
}
