import type { SlackMessage } from '@genbot/fakes';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** True when every code fence opened in `text` is closed again. */
export function fencesBalanced(text: string): boolean {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (marker === undefined) continue;
    if (open === undefined) open = marker;
    else if (marker[0] === open[0] && marker.length >= open.length && line.trim() === marker) open = undefined;
  }
  return open === undefined;
}

// A message cut inside a code block ends with an added closing fence; the next reopens it.
const ADDED_CLOSING = /\n(`{3,}|~{3,})$/;
const ADDED_REOPEN = /^(`{3,}|~{3,})[^\n`]*\n/;

/** Joins split messages back, dropping the fence lines added where a code block was cut in two. */
export function reassemble(messages: readonly string[]): string {
  return messages
    .map((message, index) => {
      let body = message;
      const previous = messages[index - 1];
      const next = messages[index + 1];
      if (previous !== undefined && ADDED_CLOSING.test(previous) && ADDED_REOPEN.test(body))
        body = body.replace(ADDED_REOPEN, '');
      if (next !== undefined && ADDED_CLOSING.test(body) && ADDED_REOPEN.test(next))
        body = body.replace(ADDED_CLOSING, '\n');
      return body;
    })
    .join('');
}

/** Every text the message showed, oldest first, ending with the current one. */
export function versions(message: SlackMessage): string[] {
  return [...message.edits.map((v) => v.text), message.text];
}
