import type { ResultAction } from '../surface/surface.js';

const PREFIX = 'gb1';
const LETTERS: Readonly<Record<ResultAction, string>> = { reroll: 'r', vary: 'v', edit: 'e', undo: 'u' };
const ACTIONS = new Map(Object.entries(LETTERS).map(([action, letter]) => [letter, action as ResultAction]));
const REF = /^[A-Za-z0-9_-]{16}$/;
const FORM_NAME = /^([vi])([1-9]\d{0,5})$/;

/**
 * What an Edit button's form is titled with, carried in the button's id so
 * the form opens before anything is read: the version's number, or with
 * several images in the result, the image's place in it.
 */
export type FormName = { version: number } | { image: number };

/** What a button id says: an action on the image version with this ref. */
export interface ButtonTarget {
  action: ResultAction;
  ref: string;
  /** Edit only, when the button was made with one (older buttons carry none). */
  formName?: FormName | undefined;
}

/**
 * A button's id: `gb1:<action letter>:<version ref>` (22 characters, within
 * Discord's 100 for a custom_id and Slack's 255 for an action_id), and for
 * Edit the form's name (`:v3`, or `:i2` for the second of several images). It
 * names a stored record, never the prompt; the `gb1` prefix leaves room for
 * another shape later.
 */
export function buttonId(action: ResultAction, ref: string, formName?: FormName): string {
  const id = `${PREFIX}:${LETTERS[action]}:${ref}`;
  if (action !== 'edit' || formName === undefined) return id;
  return 'version' in formName ? `${id}:v${formName.version}` : `${id}:i${formName.image}`;
}

/** Reads a button id back; undefined for anything this bot did not make (a forged or foreign id). */
export function parseButtonId(id: string): ButtonTarget | undefined {
  const [prefix, letter, ref, name, ...rest] = id.split(':');
  if (prefix !== PREFIX || letter === undefined || ref === undefined || rest.length > 0) return undefined;
  const action = ACTIONS.get(letter);
  if (action === undefined || !REF.test(ref)) return undefined;
  if (name === undefined) return { action, ref };
  const named = action === 'edit' ? FORM_NAME.exec(name) : null;
  if (named === null) return undefined;
  const number = Number(named[2]);
  return { action, ref, formName: named[1] === 'v' ? { version: number } : { image: number } };
}
