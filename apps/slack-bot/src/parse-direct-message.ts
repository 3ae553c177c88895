import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';
import { envelopeFields, messageEventFields, type MessageTurn, messageTurn } from './message-turn.js';
import type { BotIdentity } from './parse-thread.js';

/**
 * Whether a conversation is a direct message with the bot: Slack's DM IDs
 * start with `D`. Events that carry no `channel_type` (app_mention, button
 * presses, slash commands) are told apart by this alone.
 */
export function isDirectMessageChannel(channel: string): boolean {
  return channel.startsWith('D');
}

const head = z.looseObject({
  event: z.looseObject({
    type: z.literal('message'),
    channel_type: z.string().optional(),
    subtype: z.string().optional(),
  }),
});

const directMessageEvent = z.looseObject({ ...envelopeFields, event: z.looseObject(messageEventFields) });

/** A person's new message in their DM with the bot: a turn of the conversation its thread holds. */
export interface DirectMessage extends MessageTurn {
  userId: string;
}

/**
 * A `message` event_callback body as a turn in a DM with the bot. Undefined
 * for everything else: other conversations' messages, edits, deletions and
 * other subtypes (only a plain message or a `file_share` is something a
 * person wrote just now), and messages of bots, the bot's own among them.
 */
export function parseDirectMessage(body: unknown, identity: BotIdentity): Parsed<DirectMessage | undefined> {
  const kind = head.safeParse(body);
  if (!kind.success) return { ok: false, problem: describeIssue(kind.error) };
  const { channel_type: channelType, subtype } = kind.data.event;
  if (channelType !== 'im' || (subtype !== undefined && subtype !== 'file_share'))
    return { ok: true, value: undefined };
  const parsed = directMessageEvent.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { event } = parsed.data;
  const user = event.user;
  if (user === undefined || event.bot_id !== undefined || user === identity.userId)
    return { ok: true, value: undefined };
  return { ok: true, value: { ...messageTurn(parsed.data, event), userId: user } };
}
