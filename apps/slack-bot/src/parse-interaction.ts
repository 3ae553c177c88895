import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';
import { decodeFormPlace, INSTRUCTION_ACTION, INSTRUCTION_BLOCK } from './result-blocks.js';

const blockActions = z.looseObject({
  type: z.literal('block_actions'),
  trigger_id: z.string().min(1),
  user: z.looseObject({ id: z.string().min(1) }),
  team: z.looseObject({ id: z.string().min(1) }).nullish(),
  container: z.looseObject({
    type: z.literal('message'),
    message_ts: z.string().min(1),
    channel_id: z.string().min(1),
    thread_ts: z.string().min(1).optional(),
  }),
  // Absent for a button on an ephemeral message, which none of the bot's results is.
  message: z.looseObject({ user: z.string().min(1).optional(), bot_id: z.string().min(1).optional() }).optional(),
  actions: z.array(z.looseObject({ type: z.string(), action_id: z.string().min(1) })).min(1),
});

const viewSubmission = z.looseObject({
  type: z.literal('view_submission'),
  user: z.looseObject({ id: z.string().min(1) }),
  team: z.looseObject({ id: z.string().min(1) }).nullish(),
  view: z.looseObject({
    id: z.string().min(1),
    private_metadata: z.string(),
    state: z.looseObject({
      values: z.record(z.string(), z.record(z.string(), z.looseObject({ value: z.string().nullish() }))),
    }),
  }),
});

/** Who posted a message, as a payload names them: a user, an app's bot, or both (an app's bot user). */
export interface SlackAuthor {
  userId: string | undefined;
  botId: string | undefined;
}

/** A press of a button on a message (the bot's own, unless copied: see `author`). */
export interface SlackPress {
  triggerId: string;
  userId: string;
  workspaceId: string | undefined;
  channelId: string;
  /** The message that carries the button, and the thread it is in (its own ts when it starts none). */
  messageTs: string;
  threadTs: string;
  /** Who posted the message; undefined when the payload does not say. */
  author: SlackAuthor | undefined;
  actionId: string;
}

/** A submitted edit form: where its result goes came with the form, through `private_metadata`. */
export interface SlackFormSubmission {
  viewId: string;
  userId: string;
  workspaceId: string | undefined;
  channelId: string;
  threadTs: string | undefined;
  /** The message whose Edit opened the form. */
  messageTs: string | undefined;
  state: string;
  instruction: string;
}

/** The `block_actions` body Bolt hands an action listener. */
export function parseBlockActions(body: unknown): Parsed<SlackPress> {
  const parsed = blockActions.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { data } = parsed;
  const action = data.actions[0];
  if (action === undefined) return { ok: false, problem: 'actions: empty' };
  return {
    ok: true,
    value: {
      triggerId: data.trigger_id,
      userId: data.user.id,
      workspaceId: data.team?.id,
      channelId: data.container.channel_id,
      messageTs: data.container.message_ts,
      threadTs: data.container.thread_ts ?? data.container.message_ts,
      author: data.message === undefined ? undefined : { userId: data.message.user, botId: data.message.bot_id },
      actionId: action.action_id,
    },
  };
}

/** The `view_submission` body Bolt hands a view listener. */
export function parseViewSubmission(body: unknown): Parsed<SlackFormSubmission> {
  const parsed = viewSubmission.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { data } = parsed;
  const place = decodeFormPlace(data.view.private_metadata);
  if (place === undefined) return { ok: false, problem: 'view.private_metadata: not a form this bot opened' };
  return {
    ok: true,
    value: {
      viewId: data.view.id,
      userId: data.user.id,
      workspaceId: data.team?.id,
      channelId: place.channelId,
      threadTs: place.threadTs,
      messageTs: place.messageTs,
      state: place.state,
      instruction: data.view.state.values[INSTRUCTION_BLOCK]?.[INSTRUCTION_ACTION]?.value ?? '',
    },
  };
}
