import { describe, expect, it } from 'vitest';
import { earlierTurnsNote, replyText, splitIntoDeltas } from './text.js';

describe('replyText', () => {
  it('quotes the prompt and is the same for the same prompt', () => {
    expect(replyText('draw a fox')).toContain('"draw a fox"');
    expect(replyText('draw a fox')).toBe(replyText('draw a fox'));
    expect(replyText('draw a fox')).not.toBe(replyText('draw a hen'));
  });

  it('says how many turns came before, in words, and nothing for the first', () => {
    expect(replyText('and then?', 10, 3)).toBe('You said: "and then?". (3 earlier messages in this conversation)');
    expect(earlierTurnsNote(1)).toBe(' (1 earlier message in this conversation)');
    expect(earlierTurnsNote(0)).toBe('');
    expect(replyText('first', 10)).toBe('You said: "first".');
  });

  it('reaches about the asked length in several paragraphs', () => {
    const text = replyText('long one', 800);
    expect(text.length).toBeGreaterThanOrEqual(800);
    expect(text.length).toBeLessThan(800 + 200);
    expect(text.split('\n\n').length).toBeGreaterThan(2);
    expect(text).not.toContain('```');
  });

  it('puts a fenced code block in the middle of long replies', () => {
    const text = replyText('longer one', 3000);
    const fence = text.indexOf('```ts');
    expect(fence).toBeGreaterThan(1000);
    expect(text.indexOf('```', fence + 5)).toBeLessThan(text.length - 500);
  });
});

describe('splitIntoDeltas', () => {
  it('splits into the asked number of pieces that join back', () => {
    const text = replyText('split me', 400);
    const deltas = splitIntoDeltas(text, 7);
    expect(deltas).toHaveLength(7);
    expect(deltas.join('')).toBe(text);
  });

  it('falls back to characters when words run short', () => {
    expect(splitIntoDeltas('You ', 3)).toEqual(['Y', 'o', 'u ']);
    expect(splitIntoDeltas('', 3)).toEqual([]);
  });
});
