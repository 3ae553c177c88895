import type { DiscordModal } from '@genbot/fakes';
import { z } from 'zod';
import { blocksText } from './blocks-text.js';

/** One part of a form, in the order the app laid it out. */
export type FormPart =
  /** Words between the fields: Slack's mrkdwn, Discord's Markdown. */
  | { kind: 'text'; text: string }
  | {
      kind: 'input';
      /** What the submission keys the value by: Slack's block_id, Discord's custom_id. */
      id: string;
      label: string;
      /** Under the field: Slack's hint, a Discord Label's description. */
      hint?: string;
      placeholder?: string;
      required: boolean;
      maxLength: number;
      multiline: boolean;
      /** What it holds when shown (the app's initial value). */
      value: string;
    }
  | {
      kind: 'select';
      id: string;
      label: string;
      hint?: string;
      required: boolean;
      options: { label: string; value: string }[];
      /** The option chosen when shown; '' for none. */
      value: string;
      /**
       * Sent the moment it is chosen (a select in a Slack actions block): the app may
       * change the form in answer. Its id is then the element's action_id.
       */
      acts?: boolean;
    };

/** A form the bot opened (Slack modal, Discord modal), until it is sent or closed. */
export interface FormView {
  /** Slack's view id, or the Discord interaction that answered with the modal. */
  id: string;
  /** Grows each time the app replaces the form's content (Slack's views.update, or `response_action: update`). */
  version: number;
  /** alice or bob. */
  person: string;
  title: string;
  /** Absent when there is nothing to send: a notice the app put in the form's place. */
  submit?: string;
  close: string;
  parts: FormPart[];
}

const plainText = z.looseObject({ text: z.string() });
const slackOption = z.looseObject({ text: plainText, value: z.string() });
const staticSelect = z.looseObject({
  type: z.literal('static_select'),
  action_id: z.string(),
  options: z.array(slackOption),
  initial_option: slackOption.optional(),
});
const plainTextInput = z.looseObject({
  type: z.literal('plain_text_input'),
  action_id: z.string(),
  multiline: z.boolean().optional(),
  max_length: z.number().optional(),
  initial_value: z.string().optional(),
  placeholder: plainText.optional(),
});
const slackInput = z.looseObject({
  type: z.literal('input'),
  block_id: z.string(),
  label: plainText,
  hint: plainText.optional(),
  optional: z.boolean().optional(),
  element: z.unknown(),
});
const slackActions = z.looseObject({ type: z.literal('actions'), elements: z.array(z.unknown()) });
const slackModal = z.looseObject({
  title: plainText.optional(),
  submit: plainText.optional(),
  close: plainText.optional(),
  blocks: z.array(z.unknown()).default([]),
});

/** Slack's most characters in a plain_text_input when the app sets none. */
const SLACK_INPUT_CHARS = 3000;

const options = (select: z.infer<typeof staticSelect>) =>
  select.options.map((option) => ({ label: option.text.text, value: option.value }));

function slackParts(block: unknown): FormPart[] {
  const input = slackInput.safeParse(block);
  if (input.success) {
    const { block_id: id, label, hint, optional } = input.data;
    const common = { id, label: label.text, required: optional !== true, ...(hint && { hint: hint.text }) };
    const text = plainTextInput.safeParse(input.data.element);
    if (text.success) {
      const element = text.data;
      return [
        {
          kind: 'input',
          ...common,
          maxLength: element.max_length ?? SLACK_INPUT_CHARS,
          multiline: element.multiline === true,
          value: element.initial_value ?? '',
          ...(element.placeholder && { placeholder: element.placeholder.text }),
        },
      ];
    }
    const select = staticSelect.safeParse(input.data.element);
    if (select.success) {
      return [
        { kind: 'select', ...common, options: options(select.data), value: select.data.initial_option?.value ?? '' },
      ];
    }
    return [];
  }
  const actions = slackActions.safeParse(block);
  if (actions.success) {
    return actions.data.elements.flatMap((element): FormPart[] => {
      const select = staticSelect.safeParse(element);
      if (!select.success) return [];
      return [
        {
          kind: 'select',
          id: select.data.action_id,
          label: '',
          required: true,
          options: options(select.data),
          value: select.data.initial_option?.value ?? '',
          acts: true,
        },
      ];
    });
  }
  const text = blocksText([block]);
  return text === '' ? [] : [{ kind: 'text', text }];
}

/** A Slack modal as the page draws it: its sections, inputs (text and selects) and the selects of its actions blocks. */
export function slackForm(
  shown: { id: string; history: readonly unknown[]; view: unknown },
  person: string,
): FormView | undefined {
  const modal = slackModal.safeParse(shown.view);
  if (!modal.success) return undefined;
  return {
    id: shown.id,
    version: shown.history.length,
    person,
    title: modal.data.title?.text ?? 'Form',
    ...(modal.data.submit && { submit: modal.data.submit.text }),
    close: modal.data.close?.text ?? 'Cancel',
    parts: modal.data.blocks.flatMap(slackParts),
  };
}

/** A Discord modal as the page draws it: its Text Displays, then its text inputs and string selects in order. */
export function discordForm(id: string, person: string, modal: DiscordModal): FormView {
  const fields = modal.order.flatMap((customId): FormPart[] => {
    const input = modal.inputs.find((each) => each.customId === customId);
    if (input !== undefined) {
      return [
        {
          kind: 'input',
          id: customId,
          label: input.label,
          required: input.required,
          maxLength: input.maxLength,
          multiline: input.style === 2,
          value: input.value ?? '',
          ...(input.description !== undefined && { hint: input.description }),
          ...(input.placeholder !== undefined && { placeholder: input.placeholder }),
        },
      ];
    }
    const select = modal.selects.find((each) => each.customId === customId);
    if (select === undefined) return [];
    return [
      {
        kind: 'select',
        id: customId,
        label: select.label,
        required: select.required,
        options: select.options.map((option) => ({ label: option.label, value: option.value })),
        value: select.options.find((option) => option.default)?.value ?? '',
        ...(select.description !== undefined && { hint: select.description }),
      },
    ];
  });
  return {
    id,
    version: 0,
    person,
    title: modal.title,
    // Discord's client names the buttons of every modal alike.
    submit: 'Submit',
    close: 'Cancel',
    parts: [...modal.texts.map((text): FormPart => ({ kind: 'text', text })), ...fields],
  };
}
