import type { ChatTarget } from '@genbot/core/surface';
import type { Logger } from '@genbot/core/log';
import type { App } from '@slack/bolt';
import { toCachedMessage } from '../cached-message.js';
import { parseAppMention, type AppMention } from '../parse-app-mention.js';
import { answerPrivately } from '../ephemeral.js';
import type { HandlerContext } from './context.js';

/**
 * The mention as a job: what it says and where, recorded and queued through
 * the intake (its id is Slack's event id, so a redelivery is the same job);
 * a refusal is a private answer.
 */
async function submitMention(context: HandlerContext, mention: AppMention, userId: string, log: Logger): Promise<void> {
  const { surface, threads, jobs } = context;
  const target: ChatTarget = { channelId: mention.channel, threadId: mention.threadTs };
  const cached = toCachedMessage(
    { ts: mention.ts, user: userId, text: mention.text, files: mention.files },
    context.identity,
  );
  await threads.observe({ channelId: mention.channel, threadId: mention.threadTs }, cached);
  const [trigger] = await surface.toThreadMessages([cached]);
  if (trigger === undefined) return;
  const result = await jobs.intake.submit({
    id: mentionJobId(mention),
    platform: 'slack',
    workspaceId: mention.workspaceId,
    channelId: mention.channel,
    threadId: mention.threadTs,
    userId,
    input: { kind: 'mention', mention: { target, trigger, userId } },
  });
  if (!result.accepted) {
    await answerPrivately(
      context,
      { channel: mention.channel, threadTs: mention.threadTs, user: userId },
      result.answer,
      log,
    );
    log.info('mention refused at intake');
    return;
  }
  log.info({ duplicate: result.duplicate }, result.duplicate ? 'mention delivered again; one job' : 'mention queued');
}

/** Slack's event id names the delivery; a hand-built payload without one falls back to the message. */
function mentionJobId(mention: AppMention): string {
  return mention.eventId === undefined ? `slack-msg-${mention.channel}-${mention.ts}` : `slack-ev-${mention.eventId}`;
}

// Slack retries a lost event at once, after 1 min and after 5 min: remember what was handled a little longer.
export const DEDUPE_TTL_MS = 10 * 60_000;

/**
 * `app_mention`, in a channel or a thread: answered in the mention's thread
 * (an image edit when an image is at hand, else a conversation) by a job.
 * Bolt has acknowledged the event already; the worker runs the job until it
 * ends, the bot shuts down or the mention is deleted.
 */
export function registerAppMention(app: App, context: HandlerContext): void {
  const { logger, seen } = context;
  app.event('app_mention', async ({ body }) => {
    const parsed = parseAppMention(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'app_mention event in an unexpected shape; ignored');
      return;
    }
    const mention = parsed.value;
    if (mention.fromBot || mention.userId === undefined) {
      logger.debug({ channel: mention.channel, ts: mention.ts }, 'mention by a bot; not answered');
      return;
    }
    const firstSeen = (key: string): Promise<boolean> =>
      // Unreachable (Redis away), the store's job id still makes a repeat one job.
      seen.firstSeen(key, DEDUPE_TTL_MS).catch((error: unknown) => {
        logger.warn({ err: error }, 'could not tell whether the event is new');
        return true;
      });
    // Both asked at once (one round trip to Redis): a delivery seen by either key is dropped, and
    // marking the other key too changes nothing, since the first delivery marked both.
    const [newEvent, newMessage] = await Promise.all([
      mention.eventId === undefined ? true : firstSeen(`event:${mention.eventId}`),
      firstSeen(`message:${mention.channel}:${mention.ts}`),
    ]);
    if (!newEvent) {
      logger.info({ eventId: mention.eventId }, 'event delivered again; already handled');
      return;
    }
    if (!newMessage) {
      logger.info({ channel: mention.channel, ts: mention.ts }, 'mention already answered');
      return;
    }
    const log = logger.child({ channel: mention.channel, ts: mention.ts });
    await submitMention(context, mention, mention.userId, log);
  });
}
