import { z } from 'zod';
import { plainTextInput, staticSelect } from './methods/modal-blocks.js';

/** What a person typed or chose, by block_id and action_id; a select's entry is the chosen option's value. */
export type TypedValues = Record<string, Record<string, string>>;

type Option = z.infer<typeof staticSelect>['options'][number];

/** One element's entry in `view.state.values`, as Slack sends it. */
export type StateEntry =
  | { type: 'plain_text_input'; value: string | null }
  | { type: 'static_select'; selected_option: Option | null }
  | { type: string; value: string | null };

const inputBlock = z.looseObject({
  type: z.literal('input'),
  block_id: z.string().optional(),
  optional: z.boolean().optional(),
  element: z.looseObject({ type: z.string(), action_id: z.string() }),
});
const actionsBlock = z.looseObject({
  type: z.literal('actions'),
  block_id: z.string().optional(),
  elements: z.array(z.looseObject({ type: z.string(), action_id: z.string().optional() })),
});
const blockList = z.array(z.unknown());

function blocksOf(view: Record<string, unknown>): unknown[] {
  const parsed = blockList.safeParse(view.blocks);
  return parsed.success ? parsed.data : [];
}

/** Slack names a block the app left unnamed; the fake names it by its place. */
const blockIdOf = (id: string | undefined, index: number): string => id ?? `block-${index}`;

function chosen(select: z.infer<typeof staticSelect>, value: string, where: string): Option {
  const found = select.options.find((each) => each.value === value);
  // Slack's client offers only the select's own options.
  if (found === undefined) throw new Error(`slack fake: ${where} has no option ${JSON.stringify(value)}`);
  return found;
}

function inputEntry(element: unknown, typed: string | undefined, optional: boolean, where: string): StateEntry {
  const text = plainTextInput.safeParse(element);
  if (text.success) {
    const value = typed ?? text.data.initial_value ?? '';
    // Slack's client refuses to send what breaks the input's own limits, or a required input left empty.
    if (text.data.max_length !== undefined && value.length > text.data.max_length) {
      throw new Error(`slack fake: ${where} holds at most ${text.data.max_length} characters`);
    }
    if (value === '' && !optional) throw new Error(`slack fake: ${where} is required`);
    return { type: 'plain_text_input', value: value === '' ? null : value };
  }
  const select = staticSelect.safeParse(element);
  if (select.success) {
    const option = typed === undefined ? (select.data.initial_option ?? null) : chosen(select.data, typed, where);
    if (option === null && !optional) throw new Error(`slack fake: ${where} is required`);
    return { type: 'static_select', selected_option: option };
  }
  const head = z.looseObject({ type: z.string() }).parse(element);
  return { type: head.type, value: typed ?? null };
}

/**
 * `view.state.values` as Slack sends it with a submission or an action in
 * the view: every input block, each holding its initial value unless the
 * person changed it (`typed`). Naming a block or action the view does not
 * have is a mistake in the test.
 */
export function viewState(
  view: Record<string, unknown>,
  typed: TypedValues = {},
): Record<string, Record<string, StateEntry>> {
  const state: Record<string, Record<string, StateEntry>> = {};
  const used = new Set<string>();
  blocksOf(view).forEach((block, index) => {
    const input = inputBlock.safeParse(block);
    if (!input.success) return;
    const blockId = blockIdOf(input.data.block_id, index);
    const { action_id: actionId } = input.data.element;
    const value = typed[blockId]?.[actionId];
    if (value !== undefined) used.add(`${blockId}/${actionId}`);
    const where = `input ${blockId}/${actionId}`;
    state[blockId] = { [actionId]: inputEntry(input.data.element, value, input.data.optional === true, where) };
  });
  for (const [blockId, byAction] of Object.entries(typed)) {
    for (const actionId of Object.keys(byAction)) {
      if (!used.has(`${blockId}/${actionId}`))
        throw new Error(`slack fake: the view has no input ${blockId}/${actionId}`);
    }
  }
  return state;
}

/** The first input block's ids, for a submission that gives one text. */
export function firstInput(view: Record<string, unknown>): { blockId: string; actionId: string } | undefined {
  for (const [index, block] of blocksOf(view).entries()) {
    const input = inputBlock.safeParse(block);
    if (input.success)
      return { blockId: blockIdOf(input.data.block_id, index), actionId: input.data.element.action_id };
  }
  return undefined;
}

const buttonElement = z.looseObject({
  type: z.literal('button'),
  action_id: z.string(),
  value: z.string().optional(),
  text: z.looseObject({ type: z.string(), text: z.string() }),
});

/**
 * The `actions[0]` of a `block_actions` payload when a person uses an
 * element of an actions block in a view: a button pressed, or a select's
 * option chosen (`value`, which must be one of its options).
 */
export function viewAction(
  view: Record<string, unknown>,
  actionId: string,
  value: string | undefined,
): Record<string, unknown> {
  const actionTs = `${(Date.now() / 1000).toFixed(6)}`;
  for (const [index, block] of blocksOf(view).entries()) {
    const actions = actionsBlock.safeParse(block);
    if (!actions.success) continue;
    const blockId = blockIdOf(actions.data.block_id, index);
    for (const element of actions.data.elements) {
      if (element.action_id !== actionId) continue;
      const select = staticSelect.safeParse(element);
      if (select.success) {
        if (value === undefined) throw new Error(`slack fake: choose an option of ${actionId}`);
        return {
          type: 'static_select',
          action_id: actionId,
          block_id: blockId,
          selected_option: chosen(select.data, value, `select ${actionId}`),
          ...(select.data.initial_option !== undefined && { initial_option: select.data.initial_option }),
          action_ts: actionTs,
        };
      }
      const button = buttonElement.safeParse(element);
      if (button.success) {
        return {
          type: 'button',
          action_id: actionId,
          block_id: blockId,
          text: button.data.text,
          ...(button.data.value !== undefined && { value: button.data.value }),
          action_ts: actionTs,
        };
      }
      throw new Error(`slack fake: ${actionId} is a ${element.type}, which the fake does not act on`);
    }
  }
  throw new Error(`slack fake: the view has no action ${actionId}`);
}
