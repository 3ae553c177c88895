import { openFenceAtEnd } from '../src/rendering/fences.js';

/** About 12,000 characters of Markdown with every kind of boundary, long code blocks and one unbreakable word. */
export function longMarkdown(): string {
  const sentence = (i: number): string => `Sentence number ${i} talks about streaming replies and how they get split.`;
  const paragraph = (from: number, count: number): string =>
    Array.from({ length: count }, (_, k) => sentence(from + k)).join(' ');
  const code = Array.from(
    { length: 140 },
    (_, i) => `  const value${i} = compute(${i}, "line ${i}"); // step ${i}`,
  ).join('\n');
  const tilde = Array.from({ length: 40 }, (_, i) => `echo "shell line ${i}"`).join('\n');
  return [
    '# A long answer',
    paragraph(0, 6),
    paragraph(6, 4),
    '```ts',
    'function example(): void {',
    code,
    '}',
    '```',
    paragraph(10, 3),
    '- item one\n- item two\n- item three',
    paragraph(13, 45),
    '~~~bash',
    tilde,
    '~~~',
    `Here is an unbreakable token: ${'x'.repeat(2500)} and then the end.`,
    paragraph(58, 5),
  ].join('\n\n');
}

export function fencesBalanced(text: string): boolean {
  return openFenceAtEnd(text) === undefined;
}

// Cuts inside code land on line starts, so the added closing follows the text's own newline.
const ADDED_CLOSING = /(?<=\n)(`{3,}|~{3,})$/;
const ADDED_REOPEN = /^(`{3,}|~{3,})[^\n`]*\n/;

/**
 * Joins split messages back, dropping the fence lines the splitter added at a
 * junction (a message ending in a bare fence marker followed by one starting
 * with a reopened fence: the text above never has that on its own).
 */
export function reassemble(messages: readonly string[]): string {
  let joined = '';
  messages.forEach((message, index) => {
    let body = message;
    const previous = index > 0 ? messages[index - 1] : undefined;
    const next = messages[index + 1];
    if (previous !== undefined && ADDED_CLOSING.test(previous) && ADDED_REOPEN.test(body))
      body = body.replace(ADDED_REOPEN, '');
    if (next !== undefined && ADDED_CLOSING.test(body) && ADDED_REOPEN.test(next))
      body = body.replace(ADDED_CLOSING, '');
    joined += body;
  });
  return joined;
}
