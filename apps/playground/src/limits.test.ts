import { IMAGE_FORMATS_IN_WORDS } from '@genbot/core/genai';
import { describe, expect, it } from 'vitest';
import { LIMIT_WORDS } from './limits.js';

describe('the playground limits in words', () => {
  // The page cannot import core (it loads limits.js alone): the words are pinned to core's here.
  it('name the image formats as the bots and the CLI do', () => {
    expect(LIMIT_WORDS.notImage).toBe(`Attach a ${IMAGE_FORMATS_IN_WORDS} image`);
  });
});
