import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';
import { slackFileSchema, type SlackFile } from './parse-files.js';

/** A message as conversations.replies and message events show it. */
export const slackMessageSchema = z.looseObject({
  ts: z.string(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  subtype: z.string().optional(),
  username: z.string().optional(),
  bot_profile: z.looseObject({ name: z.string().optional() }).optional(),
  text: z.string().default(''),
  files: z.array(slackFileSchema).optional(),
  thread_ts: z.string().optional(),
});

const repliesPage = z.looseObject({
  messages: z.array(slackMessageSchema).default([]),
  has_more: z.boolean().optional(),
  response_metadata: z.looseObject({ next_cursor: z.string().optional() }).optional(),
});

export type SlackThreadMessage = z.infer<typeof slackMessageSchema> & { files?: SlackFile[] | undefined };

export interface RepliesPage {
  messages: SlackThreadMessage[];
  /** Cursor of the next page, when there is one. */
  nextCursor: string | undefined;
}

/** One page of `conversations.replies`. */
export function parseRepliesPage(response: unknown): Parsed<RepliesPage> {
  const parsed = repliesPage.safeParse(response);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const cursor = parsed.data.response_metadata?.next_cursor;
  return {
    ok: true,
    value: { messages: parsed.data.messages, nextCursor: cursor === undefined || cursor === '' ? undefined : cursor },
  };
}

const posted = z.looseObject({ ts: z.string().min(1) });

/** The `ts` of chat.postMessage / chat.startStream answers. */
export function parsePostedTs(response: unknown): Parsed<string> {
  const parsed = posted.safeParse(response);
  return parsed.success ? { ok: true, value: parsed.data.ts } : { ok: false, problem: describeIssue(parsed.error) };
}

const identity = z.looseObject({
  user_id: z.string().min(1),
  bot_id: z.string().min(1),
  // Empty for an org-wide installation's token: it belongs to no one workspace.
  team_id: z.string(),
  user: z.string().optional(),
});

export interface BotIdentity {
  userId: string;
  botId: string;
  teamId: string;
  name: string | undefined;
}

/** `auth.test` for the bot token. */
export function parseIdentity(response: unknown): Parsed<BotIdentity> {
  const parsed = identity.safeParse(response);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { user_id: userId, bot_id: botId, team_id: teamId, user: name } = parsed.data;
  return { ok: true, value: { userId, botId, teamId, name } };
}

const userInfo = z.looseObject({
  user: z.looseObject({
    name: z.string().optional(),
    real_name: z.string().optional(),
    profile: z.looseObject({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
  }),
});

/** A person's name as Slack shows it: display name, else real name, else user name. */
export function parseUserName(response: unknown): string | undefined {
  const parsed = userInfo.safeParse(response);
  if (!parsed.success) return undefined;
  const { user } = parsed.data;
  const candidates = [user.profile?.display_name, user.profile?.real_name, user.real_name, user.name];
  return candidates.find((name): name is string => name !== undefined && name.trim() !== '');
}
