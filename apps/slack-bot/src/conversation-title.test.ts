import { describe, expect, it } from 'vitest';
import { titleFromRequest } from './conversation-title.js';

describe('titleFromRequest', () => {
  it("is the request's first line with words, as plain text", () => {
    expect(titleFromRequest('Draw a *lighthouse* at dusk', 'UBOT')).toBe('Draw a lighthouse at dusk');
    expect(titleFromRequest('\n\n  `make it blue`  \nand bigger', 'UBOT')).toBe('make it blue');
    expect(titleFromRequest('<@UBOT> what is in <https://example.com|this page>?', 'UBOT')).toBe(
      'what is in this page (https://example.com)?',
    );
    expect(titleFromRequest('fish &amp; chips', 'UBOT')).toBe('fish & chips');
  });

  it('cuts a long request at a word, near 60 characters', () => {
    const title = titleFromRequest(
      'Write a cheerful poem about the harbour cats of Lisbon, in the style of a sea shanty, with a chorus',
      'UBOT',
    );
    expect(title).toBe('Write a cheerful poem about the harbour cats of Lisbon, in…');
    expect(title?.length).toBeLessThanOrEqual(60);
    expect(titleFromRequest('x'.repeat(100), 'UBOT')).toBe(`${'x'.repeat(59)}…`);
  });

  it('is none for a message without words (only a file, or only the mention)', () => {
    expect(titleFromRequest('', 'UBOT')).toBeUndefined();
    expect(titleFromRequest('<@UBOT>  \n ', 'UBOT')).toBeUndefined();
  });
});
