import { describe, expect, it } from 'vitest';
import { plainTitle } from './plain-title.js';

describe('plainTitle', () => {
  it('drops emphasis, strikethrough and code marks, keeping the words', () => {
    expect(plainTitle('🎨 Drawing “a *bold* **red** _quiet_ __big__ ~~old~~ `fox`”…')).toBe(
      '🎨 Drawing “a bold red quiet big old fox”…',
    );
    expect(plainTitle('_🖌️ Editing the image: “make it black and white”…_')).toBe(
      '🖌️ Editing the image: “make it black and white”…',
    );
  });

  it('keeps marks that are part of words or stand alone, and puts the title on one line', () => {
    expect(plainTitle('draw snake_case_name and 2*3*4 * stars')).toBe('draw snake_case_name and 2*3*4 * stars');
    expect(plainTitle('  a lighthouse\n\nat   dawn ')).toBe('a lighthouse at dawn');
  });
});
