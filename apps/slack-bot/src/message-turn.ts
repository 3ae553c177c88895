import { z } from 'zod';
import { slackFileSchema, type SlackFile } from './parse-files.js';

/** What a person's message carries in `app_mention` and `message` events alike. */
export const messageEventFields = {
  user: z.string().min(1).optional(),
  bot_id: z.string().optional(),
  text: z.string().default(''),
  ts: z.string().min(1),
  thread_ts: z.string().optional(),
  channel: z.string().min(1),
  team: z.string().optional(),
  files: z.array(slackFileSchema).optional(),
};

/** The event_callback's own fields around the event. */
export const envelopeFields = { event_id: z.string().optional(), team_id: z.string().optional() };

/** A message as a turn of its thread's conversation, wherever it was written. */
export interface MessageTurn {
  /** Absent only on hand-built payloads; Slack always sends it. */
  eventId: string | undefined;
  /** The Slack team (workspace). */
  workspaceId: string | undefined;
  channel: string;
  ts: string;
  /** The thread it was written in, or its own ts when it starts none (the reply starts it). */
  threadTs: string;
  text: string;
  files: SlackFile[];
}

export function messageTurn(
  envelope: { event_id?: string | undefined; team_id?: string | undefined },
  event: {
    channel: string;
    ts: string;
    thread_ts?: string | undefined;
    team?: string | undefined;
    text: string;
    files?: SlackFile[] | undefined;
  },
): MessageTurn {
  return {
    eventId: envelope.event_id,
    workspaceId: envelope.team_id ?? event.team,
    channel: event.channel,
    ts: event.ts,
    threadTs: event.thread_ts ?? event.ts,
    text: event.text,
    files: event.files ?? [],
  };
}
