import { expect } from 'vitest';

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Fence lines in a message: even when every code block opened in it is closed in it. */
export function fenceLines(text: string): number {
  return text.split('\n').filter((line) => FENCE_LINE.test(line)).length;
}

/**
 * Checks that `pieces` are `expected` split cleanly: each within the limit,
 * fences balanced in each, and, once a code block closed at a cut and
 * reopened in the next message is stitched back, together exactly `expected`.
 */
export function expectCleanSplit(pieces: readonly string[], expected: string, limit = 2_000): void {
  expect(pieces.length).toBeGreaterThan(1);
  let rest = expected;
  let reopen = '';
  for (const [index, piece] of pieces.entries()) {
    expect(piece.length, `message ${index + 1} length`).toBeLessThanOrEqual(limit);
    expect(fenceLines(piece) % 2, `message ${index + 1} leaves a code block open`).toBe(0);
    expect(piece.startsWith(reopen), `message ${index + 1} reopens the code block`).toBe(true);
    let body = piece.slice(reopen.length);
    reopen = '';
    if (!rest.startsWith(body)) {
      // The cut fell inside a code block: this message closed it, the next reopens it.
      const closed = /\n?(`{3,}|~{3,})$/.exec(body);
      expect(closed, `message ${index + 1} is not a prefix of the reply`).not.toBeNull();
      const withNewline = body.slice(0, closed?.index);
      const withoutNewline = body.slice(0, body.length - (closed?.[1]?.length ?? 0));
      body = rest.startsWith(withoutNewline) && fenceLines(withoutNewline) % 2 === 1 ? withoutNewline : withNewline;
      expect(rest.startsWith(body), `message ${index + 1} is not a prefix of the reply`).toBe(true);
      const opening = body.split('\n').findLast((line) => FENCE_LINE.test(line));
      reopen = `${opening ?? '```'}\n`;
    }
    rest = rest.slice(body.length);
  }
  expect(rest).toBe('');
}
