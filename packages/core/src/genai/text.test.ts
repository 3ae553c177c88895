import { describe, expect, it } from 'vitest';
import { extractText } from './text.js';

describe('extractText', () => {
  it('joins the text parts and skips thoughts', () => {
    expect(
      extractText({
        candidates: [
          {
            content: {
              parts: [
                { text: 'thinking…', thought: true },
                { text: 'Hello, ' },
                { inlineData: { mimeType: 'image/png', data: 'AA==' } },
                { text: 'world' },
              ],
            },
          },
        ],
      }),
    ).toBe('Hello, world');
  });

  it('takes the first candidate that has text', () => {
    expect(extractText({ candidates: [{ content: { parts: [] } }, { content: { parts: [{ text: 'b' }] } }] })).toBe(
      'b',
    );
  });

  it('is empty when there is no text', () => {
    expect(extractText({})).toBe('');
    expect(extractText({ candidates: [{ finishReason: 'SAFETY' }] })).toBe('');
  });
});
