import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';

// Every `message` event comes to the same listener; only the subtype tells a deletion apart.
const messageEnvelope = z.looseObject({
  event: z.looseObject({ type: z.literal('message'), subtype: z.string().optional() }),
});

const deletionEnvelope = z.looseObject({
  event: z.looseObject({
    type: z.literal('message'),
    subtype: z.literal('message_deleted'),
    channel: z.string().min(1),
    deleted_ts: z.string().min(1),
  }),
});

export interface MessageDeleted {
  channel: string;
  /** The ts of the message that is gone. */
  deletedTs: string;
}

/**
 * A `message` event_callback body: the deleted message when it is a
 * `message_deleted`, undefined for every other kind of message event.
 */
export function parseMessageDeleted(body: unknown): Parsed<MessageDeleted | undefined> {
  const message = messageEnvelope.safeParse(body);
  if (!message.success) return { ok: false, problem: describeIssue(message.error) };
  if (message.data.event.subtype !== 'message_deleted') return { ok: true, value: undefined };
  const deletion = deletionEnvelope.safeParse(body);
  if (!deletion.success) return { ok: false, problem: describeIssue(deletion.error) };
  const { channel, deleted_ts: deletedTs } = deletion.data.event;
  return { ok: true, value: { channel, deletedTs } };
}
