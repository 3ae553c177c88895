import type { Logger } from '@genbot/core/log';
import type { SeenKeys } from '@genbot/core/scheduling';
import type { webApi } from '@slack/bolt';
import { plainText } from './mentions.js';
import type { BotIdentity } from './parse-thread.js';
import { plainTitle } from './plain-title.js';
import { slackCall, slackErrorCode } from './slack-errors.js';

/** A title is a glance at the request: its first words, at most this many characters. */
const MAX_TITLE_CHARS = 60;

/**
 * How long a thread the assistant view opened waits for its first message to
 * name it, and how long a named one stays named: a person may open the
 * assistant and write hours later.
 */
const THREAD_MEMORY_MS = 24 * 60 * 60_000;

/**
 * A conversation's title from its first request's own words, with no model
 * call: the first line with text, Slack markup and Markdown marks removed,
 * cut at a word near 60 characters. Undefined when there are no words (a
 * message with only a file).
 */
export function titleFromRequest(text: string, botUserId: string): string | undefined {
  const readable = plainText(text, botUserId, new Map())
    .split('\n')
    .map((line) => plainTitle(line))
    .find((line) => line !== '');
  if (readable === undefined) return undefined;
  if (readable.length <= MAX_TITLE_CHARS) return readable;
  const cut = readable.slice(0, MAX_TITLE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space >= MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.!?-]+$/, '')}…`;
}

/** What titling a conversation needs of the app. */
export interface TitleContext {
  client: webApi.WebClient;
  identity: BotIdentity;
  /** Shared by the app's replicas (Redis with REDIS_URL): which DM threads the assistant view opened, and which are named. */
  seen: SeenKeys;
  logger: Logger;
}

/** A person's message in a DM with the app, accepted as a turn. */
export interface DmTurn {
  channel: string;
  ts: string;
  /** The thread it was written in; undefined (or its own ts) when it is a top-level message. */
  threadTs?: string | undefined;
  /** As Slack sent it (mrkdwn, mentions as IDs). */
  text: string;
}

const assistantThreadKey = (channel: string, threadTs: string): string => `assistant-thread:${channel}:${threadTs}`;

/**
 * The assistant view opened a thread (`assistant_thread_started`): its first
 * message will name it. Called before anything else is done for the thread.
 */
export async function rememberAssistantThread(context: TitleContext, channel: string, threadTs: string): Promise<void> {
  await context.seen.firstSeen(assistantThreadKey(channel, threadTs), THREAD_MEMORY_MS);
}

/**
 * Names the conversation a DM turn starts, once, from its words: the hook the
 * DM path calls for each turn it accepts. In the agent view every top-level
 * message starts a conversation (a session, named with
 * `agents.sessions.rename` on its own thread); in the assistant view the
 * first message in a thread `assistant_thread_started` opened names it
 * (`assistant.threads.setTitle`). Later turns, and threads of neither kind,
 * change nothing. A refusal from Slack is logged and the turn goes on.
 */
export async function titleConversation(context: TitleContext, turn: DmTurn): Promise<void> {
  const { client, identity, seen, logger } = context;
  const topLevel = turn.threadTs === undefined || turn.threadTs === turn.ts;
  try {
    if (topLevel) {
      const title = titleFromRequest(turn.text, identity.userId);
      if (title === undefined) return;
      await slackCall('agents.sessions.rename', () =>
        client.agents.sessions.rename({ channel_id: turn.channel, thread_ts: turn.ts, title }),
      );
      return;
    }
    const threadTs = turn.threadTs ?? turn.ts;
    // Named already (or looked at): nothing more. A thread the assistant view did not open was marked by
    // no one, so asking marks it and says no; the key above keeps that from being asked again.
    if (!(await seen.firstSeen(`titled:${turn.channel}:${threadTs}`, THREAD_MEMORY_MS))) return;
    if (await seen.firstSeen(assistantThreadKey(turn.channel, threadTs), THREAD_MEMORY_MS)) return;
    const title = titleFromRequest(turn.text, identity.userId);
    if (title === undefined) return;
    await slackCall('assistant.threads.setTitle', () =>
      client.assistant.threads.setTitle({ channel_id: turn.channel, thread_ts: threadTs, title }),
    );
  } catch (error) {
    // The title's words are the person's: the log names the thread only. An app in the assistant view has
    // no sessions, so a top-level message there is no conversation to name.
    const level = slackErrorCode(error) === 'session_not_found' ? 'debug' : 'warn';
    logger[level]({ err: error, channel: turn.channel, ts: turn.ts }, 'could not give the conversation a title');
  }
}
