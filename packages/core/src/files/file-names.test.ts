import { describe, expect, it } from 'vitest';
import { imageFileName, imageFileStem } from './file-names.js';

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
  it('numbers the stem and keeps the real extension', () => {
    expect(imageFileName('a-fox', 2, 'webp')).toBe('a-fox-2.webp');
  });
});
