import type { ChatTarget } from '@genbot/core/surface';
import type { Logger } from '@genbot/core/log';
import { toCachedMessage } from '../cached-message.js';
import { answerPrivately } from '../ephemeral.js';
import type { SlackFile } from '../parse-files.js';
import { isDirectMessageChannel } from '../parse-direct-message.js';
import type { HandlerContext } from './context.js';

/** A message the bot answers as a turn of its thread's conversation: a mention, or a message in a DM. */
export interface ConversationTurn {
  /** Absent only on hand-built payloads; Slack always sends it. */
  eventId: string | undefined;
  workspaceId: string | undefined;
  channel: string;
  ts: string;
  /** Where the reply goes: the message's thread, or its own ts when it starts none. */
  threadTs: string;
  text: string;
  files: SlackFile[];
}

// Slack retries a lost event at once, after 1 min and after 5 min: remember what was handled a little longer.
export const DEDUPE_TTL_MS = 10 * 60_000;

/**
 * The turn's job id. A DM's message is named by itself: Slack does not send
 * `app_mention` for DMs, but should a mention there come besides `message.im`
 * (two events, two event ids) it is still one job. Elsewhere Slack's event id
 * names the delivery; a hand-built payload without one falls back to the message.
 */
export function turnJobId(turn: Pick<ConversationTurn, 'eventId' | 'channel' | 'ts'>): string {
  return turn.eventId === undefined || isDirectMessageChannel(turn.channel)
    ? `slack-msg-${turn.channel}-${turn.ts}`
    : `slack-ev-${turn.eventId}`;
}

/**
 * Whether this delivery is the first of its event and of its message: a
 * retry of the event, or the same message carried by another event (a
 * mention's `message` and `app_mention`), is dropped here, by this process
 * or, with REDIS_URL, any replica.
 */
export async function firstDelivery(
  context: Pick<HandlerContext, 'seen' | 'logger'>,
  turn: Pick<ConversationTurn, 'eventId' | 'channel' | 'ts'>,
): Promise<boolean> {
  const { seen, logger } = context;
  const firstSeen = (key: string): Promise<boolean> =>
    // Unreachable (Redis away), the store's job id still makes a repeat one job.
    seen.firstSeen(key, DEDUPE_TTL_MS).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not tell whether the event is new');
      return true;
    });
  // Both asked at once (one round trip to Redis): a delivery seen by either key is dropped, and
  // marking the other key too changes nothing, since the first delivery marked both.
  const [newEvent, newMessage] = await Promise.all([
    turn.eventId === undefined ? true : firstSeen(`event:${turn.eventId}`),
    firstSeen(`message:${turn.channel}:${turn.ts}`),
  ]);
  if (!newEvent) {
    logger.info({ eventId: turn.eventId }, 'event delivered again; already handled');
    return false;
  }
  if (!newMessage) {
    logger.info({ channel: turn.channel, ts: turn.ts }, 'message already answered');
    return false;
  }
  return true;
}

/**
 * The turn as a job: what it says and where, recorded and queued through the
 * intake (a `mention` job, whose conversation is the thread); a refusal is a
 * private answer. The logs name the place, never the words. True when it is
 * queued now (not refused, not a repeat).
 */
export async function submitTurn(
  context: HandlerContext,
  turn: ConversationTurn,
  userId: string,
  log: Logger,
  what: 'mention' | 'direct message',
): Promise<boolean> {
  const { surface, threads, jobs } = context;
  const target: ChatTarget = { channelId: turn.channel, threadId: turn.threadTs };
  const cached = toCachedMessage({ ts: turn.ts, user: userId, text: turn.text, files: turn.files }, context.identity);
  await threads.observe({ channelId: turn.channel, threadId: turn.threadTs }, cached);
  const [trigger] = await surface.toThreadMessages([cached]);
  if (trigger === undefined) return false;
  const result = await jobs.intake.submit({
    id: turnJobId(turn),
    platform: 'slack',
    workspaceId: turn.workspaceId,
    channelId: turn.channel,
    threadId: turn.threadTs,
    userId,
    input: { kind: 'mention', mention: { target, trigger, userId } },
  });
  if (!result.accepted) {
    await answerPrivately(
      context,
      { channel: turn.channel, threadTs: turn.threadTs, user: userId },
      result.answer,
      log,
    );
    log.info(`${what} refused at intake`);
    return false;
  }
  log.info({ duplicate: result.duplicate }, result.duplicate ? `${what} delivered again; one job` : `${what} queued`);
  return !result.duplicate;
}
