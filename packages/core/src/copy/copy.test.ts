import { describe, expect, it } from 'vitest';
import { copy } from './copy.js';

describe('copy: images over the channel limit', () => {
  it('names the request, the limit, and what may help', () => {
    expect(copy.imagineDone('a mural', { uploaded: 0, tooLarge: 1, limitBytes: 10 * 1024 * 1024 })).toBe(
      '⚠️ The image for “a mural” was larger than this channel takes (10.0 MiB). A smaller aspect ratio may fit.',
    );
    expect(copy.editDone('make it huge', { uploaded: 0, tooLarge: 3, limitBytes: 25 * 1024 * 1024 })).toBe(
      '⚠️ All 3 edited images for “make it huge” were larger than this channel takes (25.0 MiB). A smaller aspect ratio may fit.',
    );
    expect(copy.imagineDone('a mural', { uploaded: 2, tooLarge: 1, limitBytes: 10 * 1024 * 1024 })).toBe(
      '🎨 Done: 2 images for “a mural”. 1 more was larger than this channel takes (10.0 MiB): a smaller aspect ratio may fit.',
    );
    expect(copy.imagineDone('a mural', { uploaded: 2, tooLarge: 0 })).toBe('🎨 Done: 2 images for “a mural”.');
  });
});
