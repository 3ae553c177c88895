import { z } from 'zod';
import { envelopeFields, messageEventFields, type MessageTurn, messageTurn } from './message-turn.js';

const appMentionEvent = z.looseObject({
  type: z.literal('app_mention'),
  ...messageEventFields,
  // As a mention's user was read before the shape was shared with DMs: any string.
  user: z.string().optional(),
  subtype: z.string().optional(),
});

const eventEnvelope = z.looseObject({ ...envelopeFields, event: appMentionEvent });

export interface AppMention extends MessageTurn {
  /** A person's user ID; undefined when a bot (or an integration) wrote the message. */
  userId: string | undefined;
  fromBot: boolean;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Zod's first issue, with its path: enough to see what Slack sent differently. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? 'invalid' : `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`;
}

/** The `app_mention` event_callback body Bolt hands the listener (HTTP and Socket Mode alike). */
export function parseAppMention(body: unknown): Parsed<AppMention> {
  const parsed = eventEnvelope.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { event } = parsed.data;
  const fromBot = event.bot_id !== undefined || event.subtype === 'bot_message' || event.user === undefined;
  return {
    ok: true,
    value: { ...messageTurn(parsed.data, event), userId: fromBot ? undefined : event.user, fromBot },
  };
}
