import { isAscii } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { RawText } from './raw-text.js';

/** String literals at least this long are read straight from the bytes. */
const LIFT_MIN_BYTES = 64 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Parses a JSON body whose bulk is a few long strings (Base64 images) without
 * putting those strings on the V8 heap.
 *
 * `JSON.parse(body.toString())` holds two heap copies of every image (the text
 * and the value), in large-object space that only a full collection frees:
 * 50 concurrent 4 MiB `/imagine` grew the bot's RSS to 14x the bytes in
 * flight. A literal with no backslash and only ASCII means exactly its bytes,
 * so it is read as Latin-1, which Node keeps outside the heap (an external
 * string, freed with it); only the few hundred bytes around it go through
 * JSON.parse. The result equals JSON.parse's, except that a raw control
 * character inside a lifted literal is not refused here (the Base64 decoder
 * then tolerates whitespace, as in any image data, and refuses the rest).
 *
 * A lifted literal that is the value of a member named in `rawKeys` is not
 * even copied: it stays a view on `body` (RawText), for a reader that can
 * take bytes (the image decoder).
 *
 * Throws JSON.parse's SyntaxError when the body is not JSON.
 */
export function parseJsonBody(body: Buffer, options: ParseJsonBodyOptions = {}): unknown {
  const { liftMinBytes = LIFT_MIN_BYTES, rawKeys } = options;
  const marker = `\u0000lifted:${randomUUID()}:`;
  const lifted: Buffer[] = [];
  const pieces: string[] = [];
  let copiedTo = 0;
  let open = body.indexOf(QUOTE);
  while (open !== -1) {
    const close = closingQuote(body, open + 1);
    if (close === -1) break;
    const literal = body.subarray(open + 1, close);
    if (
      literal.byteLength >= liftMinBytes &&
      !literal.includes(BACKSLASH) &&
      isAscii(literal) &&
      !isKey(body, close + 1)
    ) {
      pieces.push(body.toString('utf8', copiedTo, open), JSON.stringify(`${marker}${String(lifted.length)}`));
      lifted.push(literal);
      copiedTo = close + 1;
    }
    open = body.indexOf(QUOTE, close + 1);
  }
  if (lifted.length === 0) return JSON.parse(body.toString('utf8'));
  pieces.push(body.toString('utf8', copiedTo));
  return JSON.parse(pieces.join(''), (key, value: unknown) => {
    if (typeof value !== 'string' || !value.startsWith(marker)) return value;
    const literal = lifted[Number(value.slice(marker.length))] ?? Buffer.alloc(0);
    return rawKeys?.has(key) === true ? new RawText(literal) : literal.toString('latin1');
  });
}

export interface ParseJsonBodyOptions {
  /** String literals at least this long are read straight from the bytes (64 KiB). */
  liftMinBytes?: number | undefined;
  /** Members whose long values stay bytes (RawText) instead of strings. */
  rawKeys?: ReadonlySet<string> | undefined;
}

/** The first quote from `from` on that no backslash escapes; -1 if none. */
function closingQuote(body: Buffer, from: number): number {
  let quote = body.indexOf(QUOTE, from);
  while (quote !== -1 && isEscaped(body, quote)) quote = body.indexOf(QUOTE, quote + 1);
  return quote;
}

/** A literal followed by a colon names a member: a reviver can swap values, never keys. */
function isKey(body: Buffer, after: number): boolean {
  let at = after;
  while (JSON_WHITESPACE.has(body[at] ?? -1)) at++;
  return body[at] === COLON;
}

/** An odd run of backslashes before a quote escapes it; an even run escapes itself. */
function isEscaped(body: Buffer, at: number): boolean {
  let backslashes = 0;
  while (body[at - backslashes - 1] === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}
