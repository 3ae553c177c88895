import type { ResultButton } from '@genbot/core/surface';
import type { types } from '@slack/bolt';
import type { EditForm } from '@genbot/core/jobs';
import { z } from 'zod';

/** Slack's limits: a section's text 3,000 characters, an actions block 25 elements. */
const MAX_SECTION_CHARS = 3_000;
const MAX_ACTIONS = 25;

/** The form's callback_id and its one input, as the view_submission names them. */
export const EDIT_FORM_CALLBACK = 'genbot-edit';
export const INSTRUCTION_BLOCK = 'instruction';
export const INSTRUCTION_ACTION = 'text';

/**
 * The blocks of a result's file message: its text (mrkdwn) and its buttons.
 * `files.completeUploadExternal` takes them in place of `initial_comment`
 * (which it would let win), so text and buttons travel with the images.
 * Each button's `action_id` and `value` are core's opaque id.
 */
export function resultBlocks(mrkdwn: string, buttons: readonly ResultButton[]): types.KnownBlock[] {
  const text = mrkdwn.length <= MAX_SECTION_CHARS ? mrkdwn : `${mrkdwn.slice(0, MAX_SECTION_CHARS - 1)}…`;
  const rows: ResultButton[][] = [];
  for (let start = 0; start < buttons.length; start += MAX_ACTIONS)
    rows.push(buttons.slice(start, start + MAX_ACTIONS));
  return [
    ...(text === '' ? [] : [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }]),
    ...rows.map((row) => ({
      type: 'actions' as const,
      elements: row.map((button) => ({
        type: 'button' as const,
        action_id: button.id,
        value: button.id,
        text: { type: 'plain_text' as const, text: button.label, emoji: true },
      })),
    })),
  ];
}

/** Where the edit goes, carried through the modal (a view_submission names no channel). */
const formPlace = z.object({
  s: z.string().min(1),
  c: z.string().min(1),
  t: z.string().min(1).optional(),
  m: z.string().min(1).optional(),
});
/** `messageTs`: the message whose Edit opened the form (the edit is honoured only from the version's own result). */
export type FormPlace = {
  state: string;
  channelId: string;
  threadTs: string | undefined;
  messageTs: string | undefined;
};

export function encodeFormPlace(place: FormPlace): string {
  return JSON.stringify({
    s: place.state,
    c: place.channelId,
    ...(place.threadTs === undefined ? {} : { t: place.threadTs }),
    ...(place.messageTs === undefined ? {} : { m: place.messageTs }),
  });
}

export function decodeFormPlace(metadata: string): FormPlace | undefined {
  try {
    const parsed = formPlace.safeParse(JSON.parse(metadata));
    if (!parsed.success) return undefined;
    const { s: state, c: channelId, t: threadTs, m: messageTs } = parsed.data;
    return { state, channelId, threadTs, messageTs };
  } catch {
    return undefined;
  }
}

/** The edit form as a Slack modal: one multi-line input, validated when submitted. */
export function editFormView(form: EditForm, place: FormPlace): types.ModalView {
  return {
    type: 'modal' as const,
    callback_id: EDIT_FORM_CALLBACK,
    private_metadata: encodeFormPlace(place),
    title: { type: 'plain_text', text: form.title },
    submit: { type: 'plain_text', text: form.submit },
    blocks: [
      {
        type: 'input',
        block_id: INSTRUCTION_BLOCK,
        label: { type: 'plain_text', text: form.label },
        element: {
          type: 'plain_text_input',
          action_id: INSTRUCTION_ACTION,
          multiline: true,
          max_length: form.maxLength,
          placeholder: { type: 'plain_text', text: form.placeholder },
        },
      },
    ],
  };
}
