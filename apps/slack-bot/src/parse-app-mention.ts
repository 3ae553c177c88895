import { z } from 'zod';
import { slackFileSchema, type SlackFile } from './parse-files.js';

const appMentionEvent = z.looseObject({
  type: z.literal('app_mention'),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  subtype: z.string().optional(),
  text: z.string().default(''),
  ts: z.string().min(1),
  thread_ts: z.string().optional(),
  channel: z.string().min(1),
  team: z.string().optional(),
  files: z.array(slackFileSchema).optional(),
});

const eventEnvelope = z.looseObject({
  event_id: z.string().optional(),
  team_id: z.string().optional(),
  event: appMentionEvent,
});

export interface AppMention {
  /** Absent only on hand-built payloads; Slack always sends it. */
  eventId: string | undefined;
  /** The Slack team (workspace). */
  workspaceId: string | undefined;
  channel: string;
  ts: string;
  /** The mention's own thread, or its ts when it starts none. */
  threadTs: string;
  /** A person's user ID; undefined when a bot (or an integration) wrote the message. */
  userId: string | undefined;
  fromBot: boolean;
  text: string;
  files: SlackFile[];
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
    value: {
      eventId: parsed.data.event_id,
      workspaceId: parsed.data.team_id ?? event.team,
      channel: event.channel,
      ts: event.ts,
      threadTs: event.thread_ts ?? event.ts,
      userId: fromBot ? undefined : event.user,
      fromBot,
      text: event.text,
      files: event.files ?? [],
    },
  };
}
