import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';

const appHomeOpened = z.looseObject({
  team_id: z.string().min(1).optional(),
  event: z.looseObject({
    type: z.literal('app_home_opened'),
    user: z.string().min(1),
    // The person's DM with the app.
    channel: z.string().min(1),
    tab: z.string().min(1),
  }),
});

const assistantThreadStarted = z.looseObject({
  event: z.looseObject({
    type: z.literal('assistant_thread_started'),
    assistant_thread: z.looseObject({
      user_id: z.string().min(1),
      channel_id: z.string().min(1),
      thread_ts: z.string().min(1),
    }),
  }),
});

const feedbackPress = z.looseObject({
  type: z.literal('block_actions'),
  user: z.looseObject({ id: z.string().min(1) }),
  container: z.looseObject({ message_ts: z.string().min(1), channel_id: z.string().min(1) }),
  actions: z.array(z.looseObject({ type: z.literal('feedback_buttons'), value: z.string() })).min(1),
});

/** A person opened the app: its Home tab, or its Messages tab (how the agent view starts a conversation). */
export interface AppHomeOpened {
  workspaceId: string | undefined;
  userId: string;
  /** Their DM with the app. */
  channel: string;
  /** `home` or `messages` (Slack may add others). */
  tab: string;
}

/** The `app_home_opened` event_callback body. */
export function parseAppHomeOpened(body: unknown): Parsed<AppHomeOpened> {
  const parsed = appHomeOpened.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { event } = parsed.data;
  return {
    ok: true,
    value: { workspaceId: parsed.data.team_id, userId: event.user, channel: event.channel, tab: event.tab },
  };
}

/** The assistant view opened a thread for a person, in their DM with the app. */
export interface AssistantThread {
  userId: string;
  channel: string;
  threadTs: string;
}

/** The `assistant_thread_started` event_callback body. */
export function parseAssistantThreadStarted(body: unknown): Parsed<AssistantThread> {
  const parsed = assistantThreadStarted.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const thread = parsed.data.event.assistant_thread;
  return { ok: true, value: { userId: thread.user_id, channel: thread.channel_id, threadTs: thread.thread_ts } };
}

/** A press of a reply's feedback buttons. */
export interface FeedbackPress {
  userId: string;
  channel: string;
  /** The reply the buttons are under. */
  messageTs: string;
  /** The pressed button's value. */
  value: string;
}

/** The `block_actions` body of a `feedback_buttons` press. */
export function parseFeedbackPress(body: unknown): Parsed<FeedbackPress> {
  const parsed = feedbackPress.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { user, container, actions } = parsed.data;
  return {
    ok: true,
    value: {
      userId: user.id,
      channel: container.channel_id,
      messageTs: container.message_ts,
      value: actions[0]?.value ?? '',
    },
  };
}
