import type { Metrics } from '@genbot/core/metrics';
import type { App } from '@slack/bolt';
import { FEEDBACK_ACTION, ratingOf } from '../feedback-blocks.js';
import { parseFeedbackPress } from '../parse-ai-app-events.js';
import type { HandlerContext } from './context.js';

/**
 * The thumbs under a natively streamed reply: each press is acknowledged,
 * counted on `/metrics` (`genbot_reply_feedback_total`) and logged with the
 * reply it rates. Slack shows the pressed button itself; nothing is posted.
 */
export function registerReplyFeedback(app: App, context: Pick<HandlerContext, 'logger'>, metrics: Metrics): void {
  const { logger } = context;
  app.action(FEEDBACK_ACTION, async ({ ack, body }) => {
    await ack();
    const parsed = parseFeedbackPress(body);
    const rating = parsed.ok ? ratingOf(parsed.value.value) : undefined;
    if (!parsed.ok || rating === undefined) {
      logger.warn({ problem: parsed.ok ? 'unknown value' : parsed.problem }, 'feedback press in an unexpected shape');
      return;
    }
    const press = parsed.value;
    metrics.replyFeedback({ platform: 'slack', rating });
    logger.info({ rating, channel: press.channel, messageTs: press.messageTs, user: press.userId }, 'reply rated');
  });
}
