import { describe, expect, it } from 'vitest';
import { cutPiece } from './split.js';
import { fencesBalanced, longMarkdown, reassemble } from '../../testing/markdown.js';

const fitsIn = (limit: number) => (markdown: string) => markdown.length <= limit;

/** Splits a whole text the way the renderer does while streaming; `original` drops the added fence lines again. */
function splitAll(text: string, limit: number, format: (markdown: string) => string = (m) => m) {
  const fits = (markdown: string) => format(markdown).length <= limit;
  const messages: string[] = [];
  let original = '';
  let body = text;
  let keep = 0;
  while (!fits(body)) {
    const piece = cutPiece(body, fits, keep);
    messages.push(piece.text);
    original += piece.text.slice(keep, piece.text.length - piece.closing.length);
    body = piece.reopen + body.slice(piece.consumed);
    keep = piece.reopen.length;
  }
  messages.push(body);
  original += body.slice(keep);
  return { messages, original };
}

describe('cutPiece', () => {
  it('cuts at a paragraph break when one fills the message well', () => {
    const text = `${'a'.repeat(60)}\n\n${'b '.repeat(30)}\nmore line\n${'c'.repeat(50)}`;
    const piece = cutPiece(text, fitsIn(100));
    expect(piece.text).toBe(`${'a'.repeat(60)}\n\n`);
    expect(piece.reopen).toBe('');
  });

  it('prefers a late line break to an early paragraph break', () => {
    const text = `intro\n\n${'word '.repeat(10)}\n${'word '.repeat(10)}\n${'z'.repeat(80)}`;
    const piece = cutPiece(text, fitsIn(120));
    expect(piece.text.endsWith(`${'word '.repeat(10)}\n`)).toBe(true);
    expect(piece.consumed).toBeGreaterThan(100);
  });

  it('falls back to a sentence end, then a word', () => {
    const sentences = 'First sentence here. Second sentence follows. Third one runs on and on without a stop';
    expect(cutPiece(sentences, fitsIn(60)).text).toBe('First sentence here. Second sentence follows. ');
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda';
    expect(cutPiece(words, fitsIn(30)).text).toBe('alpha beta gamma delta ');
  });

  it('hard-cuts a word longer than the limit, never inside a surrogate pair', () => {
    const text = `${'y'.repeat(9)}😀${'y'.repeat(20)}`;
    const piece = cutPiece(text, fitsIn(10));
    expect(piece.text).toBe('y'.repeat(9));
  });

  it('closes a code block it cuts and reopens it with the same language tag', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `print(${i})`).join('\n');
    const text = `Code:\n\n\`\`\`python\n${lines}\n\`\`\`\n`;
    const piece = cutPiece(text, fitsIn(80));
    expect(piece.text.endsWith('\n```')).toBe(true);
    expect(fencesBalanced(piece.text)).toBe(true);
    expect(piece.reopen).toBe('```python\n');
    expect(piece.text.length).toBeLessThanOrEqual(80);
  });

  it('never leaves an empty code block behind', () => {
    const text = `${'p'.repeat(40)}\n\n\`\`\`js\n${'x = 1;\n'.repeat(20)}\`\`\`\n`;
    const piece = cutPiece(text, fitsIn(52));
    expect(piece.text).toBe(`${'p'.repeat(40)}\n\n`);
  });
});

describe('splitting a long reply', () => {
  for (const limit of [2000, 4000]) {
    it(`keeps every message within ${limit} characters with balanced fences, losing nothing`, () => {
      const text = longMarkdown();
      expect(text.length).toBeGreaterThan(10_000);
      const { messages, original } = splitAll(text, limit);
      expect(messages.length).toBeGreaterThan(text.length / limit);
      for (const message of messages) {
        expect(message.length).toBeLessThanOrEqual(limit);
        expect(fencesBalanced(message)).toBe(true);
        expect(message.trim()).not.toBe('');
      }
      expect(original).toBe(text);
      expect(reassemble(messages)).toBe(text);
    });
  }

  it('measures the limit on the formatted text', () => {
    // Slack escapes & as &amp;: five characters where Markdown has one.
    const format = (markdown: string) => markdown.replaceAll('&', '&amp;');
    const text = Array.from({ length: 300 }, (_, i) => `R&D item ${i} & more.`).join('\n');
    const { messages } = splitAll(text, 1000, format);
    for (const message of messages) expect(format(message).length).toBeLessThanOrEqual(1000);
    expect(messages.join('')).toBe(text);
  });
});
