import { z } from 'zod';
import { SlackApiError } from '../api-error.js';

const plainText = (max: number) =>
  z.looseObject({ type: z.literal('plain_text'), text: z.string().min(1).max(max), emoji: z.boolean().optional() });

const feedbackButton = z.strictObject({
  text: plainText(75),
  value: z.string().min(1).max(2000),
  accessibility_label: z.string().min(1).max(75).optional(),
});

/** Block Kit's `feedback_buttons` element: a thumbs up and a thumbs down, each with its value. */
const feedbackButtons = z.strictObject({
  type: z.literal('feedback_buttons'),
  action_id: z.string().min(1).max(255).optional(),
  positive_button: feedbackButton,
  negative_button: feedbackButton,
});

const iconButton = z.looseObject({
  type: z.literal('icon_button'),
  icon: z.string().min(1),
  text: plainText(75),
  action_id: z.string().min(1).max(255).optional(),
});

/**
 * The blocks the fake checks as Slack documents them (docs.slack.dev, Block
 * Kit reference); other types pass unchecked. A `context_actions` block holds
 * 1 to 5 feedback or icon buttons and nothing else.
 */
const CHECKED: Readonly<Record<string, z.ZodType>> = {
  context_actions: z.strictObject({
    type: z.literal('context_actions'),
    block_id: z.string().min(1).max(255).optional(),
    elements: z
      .array(z.discriminatedUnion('type', [feedbackButtons, iconButton]))
      .min(1)
      .max(5),
  }),
  header: z.looseObject({ type: z.literal('header'), text: plainText(150), block_id: z.string().max(255).optional() }),
  section: z.looseObject({
    type: z.literal('section'),
    text: z.looseObject({ type: z.enum(['mrkdwn', 'plain_text']), text: z.string().min(1).max(3000) }).optional(),
    block_id: z.string().max(255).optional(),
  }),
  divider: z.looseObject({ type: z.literal('divider') }),
};

const typed = z.looseObject({ type: z.string().min(1) });

/** Checks each block Slack would check; a malformed one fails the call with `error` (messages `invalid_blocks`). */
export function checkBlocks(blocks: readonly unknown[], error: string): void {
  for (const block of blocks) {
    const head = typed.safeParse(block);
    if (!head.success) throw new SlackApiError(error);
    const schema = CHECKED[head.data.type];
    if (schema !== undefined && !schema.safeParse(block).success) throw new SlackApiError(error);
  }
}
