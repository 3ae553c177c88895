import type { DiscordCommand } from '@genbot/fakes';
import { z } from 'zod';
import { PlatformAnswer } from './platform-answers.js';

/** What Discord's client sends for a command: its subcommand, if it has them, and the options filled in. */
export interface TypedCommand {
  subcommand?: string;
  options: Record<string, string | number | boolean>;
}

const SUBCOMMAND = 1;
const INTEGER = 4;
const BOOLEAN = 5;
const NUMBER = 10;

const option = z.looseObject({
  type: z.number(),
  name: z.string(),
  required: z.boolean().optional(),
  choices: z.array(z.looseObject({ value: z.union([z.string(), z.number()]) })).optional(),
});
type Option = z.infer<typeof option>;
const options = z.array(option);

const choicesOf = (each: Option): string[] => (each.choices ?? []).map((choice) => String(choice.value));

/** A typed value as the option's type, as Discord's client checks it before sending. */
function typedValue(command: string, each: Option, text: string): string | number | boolean {
  const choices = choicesOf(each);
  if (choices.length > 0 && !choices.includes(text))
    throw new PlatformAnswer('Discord', `${command}: ${each.name} is one of ${choices.join(', ')}.`);
  if (each.type === INTEGER || each.type === NUMBER) {
    const number = Number(text);
    if (text === '' || !Number.isFinite(number) || (each.type === INTEGER && !Number.isInteger(number)))
      throw new PlatformAnswer('Discord', `${command}: ${each.name} takes a number.`);
    return number;
  }
  if (each.type === BOOLEAN) {
    if (text !== 'true' && text !== 'false')
      throw new PlatformAnswer('Discord', `${command}: ${each.name} is true or false.`);
    return text === 'true';
  }
  return text;
}

/**
 * The words typed without names, given to the options not named, in order: an option with
 * choices takes the next word when it is one of them (else it is left out); a free one takes
 * every word up to those the options after it can take from the end.
 */
function positional(words: string[], free: Option[]): Map<string, string> {
  const given = new Map<string, string>();
  let rest = [...words];
  free.forEach((each, index) => {
    if (rest.length === 0) return;
    const choices = choicesOf(each);
    if (choices.length > 0) {
      if (choices.includes(rest[0] ?? '')) given.set(each.name, rest.shift() ?? '');
      return;
    }
    // Trailing words the later options with choices take, one each, from the end.
    let end = rest.length;
    for (const later of free.slice(index + 1).reverse()) {
      if (end > 1 && choicesOf(later).includes(rest[end - 1] ?? '')) end -= 1;
    }
    given.set(each.name, rest.slice(0, end).join(' '));
    rest = rest.slice(end);
  });
  return given;
}

/**
 * Reads what follows a command typed in the composer as Discord's client fills a command in:
 * `set name:chat_model value:claude scope:server`, or the same without the names
 * (`set chat_model claude server`). A command without subcommands takes its options the same way.
 * Discord's client would not send a missing required option or a value outside an option's
 * choices: neither is sent here either, and the refusal says why.
 */
export function commandFromText(command: Pick<DiscordCommand, 'name' | 'options'>, text: string): TypedCommand {
  const all = options.parse(command.options);
  const subcommands = all.filter((each) => each.type === SUBCOMMAND);
  let words = text.trim() === '' ? [] : text.trim().split(/\s+/);
  let shown = `/${command.name}`;
  let own = all;
  let subcommand: string | undefined;
  if (subcommands.length > 0) {
    const chosen = subcommands.find((each) => each.name === words[0]?.toLowerCase());
    const names = subcommands.map((each) => each.name).join(', ');
    if (chosen === undefined)
      throw new PlatformAnswer(
        'Discord',
        `${shown} takes one of: ${names} (for example ${shown} ${subcommands[0]?.name}).`,
      );
    subcommand = chosen.name;
    shown = `${shown} ${chosen.name}`;
    own = options.parse(chosen.options ?? []);
    words = words.slice(1);
  }
  // `name:value` runs until the next option named; what comes before the first is positional.
  const named = new Map<string, string>();
  const positionalWords: string[] = [];
  let current: string | undefined;
  for (const word of words) {
    const colon = word.indexOf(':');
    const name = colon > 0 ? word.slice(0, colon) : undefined;
    if (name !== undefined && own.some((each) => each.name === name)) {
      current = name;
      named.set(name, word.slice(colon + 1));
    } else if (current !== undefined) named.set(current, `${named.get(current) ?? ''} ${word}`.trim());
    else positionalWords.push(word);
  }
  const unnamed = positional(
    positionalWords,
    own.filter((each) => !named.has(each.name)),
  );
  const values: TypedCommand['options'] = {};
  for (const each of own) {
    const typed = named.get(each.name) ?? unnamed.get(each.name);
    if (typed === undefined || typed === '') {
      if (each.required === true) {
        const example = own
          .filter((wanted) => wanted.required === true)
          .map((wanted) => `${wanted.name}:…`)
          .join(' ');
        throw new PlatformAnswer('Discord', `${shown} needs ${each.name}: ${shown} ${example}`);
      }
      continue;
    }
    values[each.name] = typedValue(shown, each, typed.trim());
  }
  return { ...(subcommand !== undefined && { subcommand }), options: values };
}
