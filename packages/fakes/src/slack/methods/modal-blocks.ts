import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import { checkBlocks } from './blocks.js';

const plainText = (max: number) =>
  z.looseObject({ type: z.literal('plain_text'), text: z.string().min(1).max(max), emoji: z.boolean().optional() });

const actionId = z.string().min(1).max(255);
const blockId = z.string().min(1).max(255).optional();

const option = z.looseObject({
  text: plainText(75),
  value: z.string().min(1).max(150),
  description: plainText(75).optional(),
});
type Option = z.infer<typeof option>;

/** Block Kit's plain-text input: `min_length` 0 to 3,000, `max_length` 1 to 3,000, a placeholder of 150 characters. */
export const plainTextInput = z.looseObject({
  type: z.literal('plain_text_input'),
  action_id: actionId,
  initial_value: z.string().optional(),
  multiline: z.boolean().optional(),
  min_length: z.number().int().min(0).max(3000).optional(),
  max_length: z.number().int().min(1).max(3000).optional(),
  placeholder: plainText(150).optional(),
});

/** Block Kit's static select: up to 100 options; an `initial_option` must be one of them, as given. */
export const staticSelect = z
  .looseObject({
    type: z.literal('static_select'),
    action_id: actionId,
    options: z.array(option).min(1).max(100),
    initial_option: option.optional(),
    placeholder: plainText(150).optional(),
  })
  .refine(
    (select) =>
      select.initial_option === undefined || select.options.some((each) => sameOption(each, select.initial_option)),
    { message: 'initial_option is not one of options' },
  );

function sameOption(a: Option, b: Option | undefined): boolean {
  return b !== undefined && a.value === b.value && a.text.text === b.text.text;
}

const elementHead = z.looseObject({ type: z.string().min(1) });

/** The elements whose shape the fake checks; others pass with a type. */
const CHECKED_ELEMENTS: Readonly<Record<string, z.ZodType>> = {
  plain_text_input: plainTextInput,
  static_select: staticSelect,
};

const checkedElement = z.unknown().refine((element) => {
  const head = elementHead.safeParse(element);
  if (!head.success) return false;
  return CHECKED_ELEMENTS[head.data.type]?.safeParse(element).success ?? true;
});

const inputBlock = z.looseObject({
  type: z.literal('input'),
  block_id: blockId,
  label: plainText(2000),
  element: checkedElement,
  hint: plainText(2000).optional(),
  optional: z.boolean().optional(),
  dispatch_action: z.boolean().optional(),
});

const actionsBlock = z.looseObject({
  type: z.literal('actions'),
  block_id: blockId,
  elements: z.array(checkedElement).min(1).max(25),
});

const contextBlock = z.looseObject({
  type: z.literal('context'),
  block_id: blockId,
  elements: z
    .array(z.looseObject({ type: z.string().min(1) }))
    .min(1)
    .max(10),
});

const MODAL_BLOCKS: Readonly<Record<string, z.ZodType>> = {
  input: inputBlock,
  actions: actionsBlock,
  context: contextBlock,
};

const withId = z.looseObject({ type: z.string(), block_id: z.string().optional() });

/**
 * What Slack checks of a modal's blocks (docs.slack.dev, Block Kit
 * reference): the message blocks' rules, the inputs' and selects' limits,
 * and block ids unique in the view. A malformed view fails `views.open` and
 * `views.update` with `invalid_arguments`.
 */
export function checkModalBlocks(blocks: readonly unknown[]): void {
  checkBlocks(blocks, 'invalid_arguments');
  const ids = new Set<string>();
  for (const block of blocks) {
    const head = withId.safeParse(block);
    if (!head.success) throw new SlackApiError('invalid_arguments');
    const schema = MODAL_BLOCKS[head.data.type];
    if (schema !== undefined && !schema.safeParse(block).success) throw new SlackApiError('invalid_arguments');
    const id = head.data.block_id;
    if (id === undefined) continue;
    if (ids.has(id)) throw new SlackApiError('invalid_arguments');
    ids.add(id);
  }
}
