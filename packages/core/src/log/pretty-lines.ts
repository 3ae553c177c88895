import type { DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';

/** Fields every line has, shown by the formatter itself or not at all. */
const SHOWN_ELSEWHERE = new Set(['level', 'time', 'pid', 'hostname', 'name']);
const ERROR_TEXT = new Set(['stack', 'message', 'type']);

/** A value as one word: quoted (as a string literal) when it holds spaces, quotes or `=`, or is empty. */
function word(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return text === '' || /[\s="]/.test(text) ? JSON.stringify(text) : text;
}

function addFields(words: string[], key: string, value: unknown): void {
  if (value === null || typeof value !== 'object') {
    words.push(`${key}=${word(value)}`);
    return;
  }
  for (const [inner, innerValue] of Object.entries(value)) addFields(words, `${key}.${inner}`, innerValue);
}

/**
 * The message, then its context as `key=value` words (nested fields with
 * dotted keys), then an error's stack on the lines below: a person reads one
 * line an entry and never a JSON object.
 */
export function humanLine(log: Record<string, unknown>, messageKey: string): string {
  const words: string[] = [];
  let stack: string | undefined;
  for (const [key, value] of Object.entries(log)) {
    if (key === messageKey || SHOWN_ELSEWHERE.has(key)) continue;
    if (key === 'err' && typeof value === 'object' && value !== null && 'stack' in value) {
      if (typeof value.stack === 'string') stack = value.stack;
      // The stack's first line says the type and the message; what else the error carries stays a field.
      const rest = Object.entries(value).filter(([name]) => !ERROR_TEXT.has(name));
      addFields(words, key, Object.fromEntries(rest));
      continue;
    }
    addFields(words, key, value);
  }
  const message = log[messageKey];
  const head = [typeof message === 'string' ? message : '', ...words].filter((part) => part !== '').join(' ');
  return stack === undefined ? head : `${head}\n    ${stack.split('\n').join('\n    ')}`;
}

/**
 * Formats each finished JSON line (already redacted) for people, in the
 * same call: no worker thread or buffered pipeline, so a fatal line written
 * just before the process exits is never lost.
 */
export function prettyLines(out: DestinationStream | NodeJS.WritableStream): DestinationStream {
  const format = prettyFactory({
    colorize: !('NO_COLOR' in process.env),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    hideObject: true,
    messageFormat: (log, messageKey) => humanLine(log, messageKey),
  });
  return { write: (line: string) => void out.write(format(line)) };
}
