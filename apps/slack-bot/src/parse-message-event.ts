import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';
import { slackMessageSchema, type SlackThreadMessage } from './parse-thread.js';

/** What a `message` event means for the thread it belongs to. */
export type ThreadEvent =
  | { kind: 'posted'; channel: string; threadTs: string; message: SlackThreadMessage }
  | { kind: 'deleted'; channel: string; threadTs: string; ts: string };

// Subtypes that carry a message people (or bots) wrote; joins, topic changes and the like never belong to a thread.
const WRITTEN = new Set(['file_share', 'bot_message', 'thread_broadcast', 'me_message']);

const envelope = z.looseObject({
  event: z.looseObject({ type: z.literal('message'), subtype: z.string().optional(), channel: z.string().min(1) }),
});

const posted = z.looseObject({ event: slackMessageSchema });

const changed = z.looseObject({
  event: z.looseObject({ message: slackMessageSchema }),
});

const deleted = z.looseObject({
  event: z.looseObject({
    deleted_ts: z.string().min(1),
    previous_message: z.looseObject({ thread_ts: z.string().optional() }).optional(),
  }),
});

function inThread(channel: string, message: SlackThreadMessage): ThreadEvent {
  return { kind: 'posted', channel, threadTs: message.thread_ts ?? message.ts, message };
}

/**
 * A `message` event_callback body as a change to a thread: a message posted
 * or edited (its latest version), or deleted. Undefined for events that touch
 * no thread (joins, topic changes, hidden housekeeping).
 */
export function parseThreadEvent(body: unknown): Parsed<ThreadEvent | undefined> {
  const head = envelope.safeParse(body);
  if (!head.success) return { ok: false, problem: describeIssue(head.error) };
  const { subtype, channel } = head.data.event;
  if (subtype === undefined || WRITTEN.has(subtype)) {
    const parsed = posted.safeParse(body);
    return parsed.success
      ? { ok: true, value: inThread(channel, parsed.data.event) }
      : { ok: false, problem: describeIssue(parsed.error) };
  }
  if (subtype === 'message_changed') {
    const parsed = changed.safeParse(body);
    return parsed.success
      ? { ok: true, value: inThread(channel, parsed.data.event.message) }
      : { ok: false, problem: describeIssue(parsed.error) };
  }
  if (subtype === 'message_deleted') {
    const parsed = deleted.safeParse(body);
    if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
    const { deleted_ts: ts, previous_message: previous } = parsed.data.event;
    return { ok: true, value: { kind: 'deleted', channel, threadTs: previous?.thread_ts ?? ts, ts } };
  }
  return { ok: true, value: undefined };
}
