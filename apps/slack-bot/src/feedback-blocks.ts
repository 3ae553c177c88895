import { copy } from '@genbot/core/copy';
import type { ReplyRating } from '@genbot/core/metrics';
import type { types } from '@slack/bolt';

/** The `action_id` of the thumbs under a streamed reply; a press comes back as a `block_actions` with it. */
export const FEEDBACK_ACTION = 'genbot_feedback';

/** The button values, as a press gives them back. */
const VALUES: Readonly<Record<ReplyRating, string>> = { good: 'good', bad: 'bad' };

/**
 * The thumbs up and down a natively streamed reply ends with: Slack's
 * `feedback_buttons` element, which only a `context_actions` block holds,
 * given as `chat.stopStream`'s `blocks` (shown at the bottom of the message).
 */
export function feedbackBlocks(): types.KnownBlock[] {
  return [
    {
      type: 'context_actions',
      elements: [
        {
          type: 'feedback_buttons',
          action_id: FEEDBACK_ACTION,
          positive_button: {
            text: { type: 'plain_text', text: copy.feedbackGood },
            value: VALUES.good,
            accessibility_label: copy.feedbackGoodLabel,
          },
          negative_button: {
            text: { type: 'plain_text', text: copy.feedbackBad },
            value: VALUES.bad,
            accessibility_label: copy.feedbackBadLabel,
          },
        },
      ],
    },
  ];
}

/** The rating a pressed button's value stands for; undefined for a value these buttons never carry. */
export function ratingOf(value: string): ReplyRating | undefined {
  if (value === VALUES.good) return 'good';
  if (value === VALUES.bad) return 'bad';
  return undefined;
}
