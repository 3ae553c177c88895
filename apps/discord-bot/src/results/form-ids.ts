/**
 * The `custom_id` of the forms (modals) the bot opens. A submit is a new
 * interaction, so the id carries what the form is about and the interaction
 * that opened it: every submit of one opened form (a Submit pressed again
 * while the first is unanswered) names the same opener, which makes them one
 * job. Nothing in it is secret: the ids are Discord's, the button id is
 * core's opaque one.
 */
export type FormTarget =
  /** The Edit button of a result: its button id names the image version. */
  | { kind: 'button'; openedBy: string; buttonId: string }
  /** The Edit image message command on a message. */
  | { kind: 'message'; openedBy: string; messageId: string };

const SNOWFLAKE = /^\d{1,20}$/;
const BUTTON_FORM = 'gbf';
const MESSAGE_FORM = 'gbm';
/** Discord's limit for a modal's `custom_id`. */
const MAX_CUSTOM_ID = 100;

export function formId(target: FormTarget): string {
  const id =
    target.kind === 'button'
      ? `${BUTTON_FORM}:${target.openedBy}:${target.buttonId}`
      : `${MESSAGE_FORM}:${target.openedBy}:${target.messageId}`;
  if (id.length > MAX_CUSTOM_ID) throw new Error(`form id over ${MAX_CUSTOM_ID} characters`);
  return id;
}

/** What a submitted form is about; undefined for an id this bot did not make. */
export function parseFormId(customId: string): FormTarget | undefined {
  const [kind, openedBy, ...rest] = customId.split(':');
  const subject = rest.join(':');
  if (openedBy === undefined || !SNOWFLAKE.test(openedBy) || subject === '') return undefined;
  if (kind === BUTTON_FORM) return { kind: 'button', openedBy, buttonId: subject };
  if (kind === MESSAGE_FORM && SNOWFLAKE.test(subject)) return { kind: 'message', openedBy, messageId: subject };
  return undefined;
}
