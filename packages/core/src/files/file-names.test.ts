import { describe, expect, it } from 'vitest';
import { imageFileName, imageFileStem, resultTag } from './file-names.js';

describe('imageFileStem', () => {
  it('keeps lowercase ASCII words joined by dashes, accents folded', () => {
    expect(imageFileStem({ prompt: 'Café au lait — étude!' })).toBe('cafe-au-lait-etude');
  });

  it('leaves out emulator directives and flags with their value', () => {
    expect(imageFileStem({ prompt: 'a fox [format:jpeg] [images:3] --ar 16:9 at dusk' })).toBe('a-fox-at-dusk');
    expect(imageFileStem({ prompt: 'harbour --v 6 [fault:503*2]' })).toBe('harbour');
    expect(imageFileStem({ prompt: 'a well-known--thing' })).toBe('a-well-known-thing');
  });

  it('names an edit after its source file, then its instruction', () => {
    expect(imageFileStem({ prompt: 'make it grayscale', sourceName: 'shots/Photo.PNG' })).toBe(
      'photo-make-it-grayscale',
    );
    expect(imageFileStem({ prompt: 'brighter', sourceName: '.hidden' })).toBe('hidden-brighter');
    expect(imageFileStem({ prompt: 'make it blue', sourceName: 'a-fox-2.png' })).toBe('a-fox-make-it-blue');
    expect(imageFileStem({ prompt: 'sharper', sourceName: '2024.jpg' })).toBe('2024-sharper');
    expect(imageFileStem({ prompt: 'sharper', sourceName: 'a-fox-1-3fa2c1.png' })).toBe('a-fox-sharper');
  });

  it('names a button’s result after the prompt, the version and the change, keeping room for them', () => {
    expect(imageFileStem({ prompt: 'a fox at dusk', version: 1, change: 'variation' })).toBe(
      'a-fox-at-dusk-v1-variation',
    );
    expect(imageFileStem({ prompt: 'a fox at dusk', version: 2, change: 'make it blue' })).toBe(
      'a-fox-at-dusk-v2-make-it-blue',
    );
    expect(imageFileStem({ prompt: 'a fox at dusk', version: 3 })).toBe('a-fox-at-dusk-v3');
    const long = imageFileStem({ prompt: 'word '.repeat(40), version: 12, change: 'make it much bluer please' });
    expect(long.length).toBeLessThanOrEqual(48);
    expect(long).toMatch(/^word-word-.*-v12-make-it-much-bluer/);
  });

  it('falls back to "image" when nothing usable is left', () => {
    expect(imageFileStem({ prompt: '日本 ✨' })).toBe('image');
    expect(imageFileStem({ prompt: '[len:40] --ar 1:1' })).toBe('image');
  });

  it('bounds the length without a trailing dash', () => {
    const stem = imageFileStem({ prompt: 'word '.repeat(40) });
    expect(stem.length).toBeLessThanOrEqual(48);
    expect(stem.endsWith('-')).toBe(false);
  });
});

describe('imageFileName', () => {
  it('numbers the stem and keeps the real extension, with the result’s tag when given', () => {
    expect(imageFileName('a-fox', 2, 'webp')).toBe('a-fox-2.webp');
    expect(imageFileName('a-fox', 2, 'webp', '3fa2c1')).toBe('a-fox-2-3fa2c1.webp');
  });
});

describe('resultTag', () => {
  it('is six hex digits, the same for the same images and another for others', () => {
    const one = [new Uint8Array([1, 2, 3])];
    expect(resultTag(one)).toMatch(/^[0-9a-f]{6}$/);
    expect(resultTag([new Uint8Array([1, 2, 3])])).toBe(resultTag(one));
    expect(resultTag([new Uint8Array([1, 2, 4])])).not.toBe(resultTag(one));
    expect(resultTag([new Uint8Array([1, 2, 3]), new Uint8Array([9])])).not.toBe(resultTag(one));
  });
});
