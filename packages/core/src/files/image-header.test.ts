import { describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { imageHeaderProblem } from './image-header.js';
import { gifWithFrames, pngDeclaring } from '../../testing/image-bombs.js';

describe('imageHeaderProblem', () => {
  it('passes an ordinary image', async () => {
    expect(await imageHeaderProblem(tinyPng())).toBeUndefined();
    expect(await imageHeaderProblem(await gifWithFrames(20))).toBeUndefined();
  });

  it('refuses a tiny PNG that declares 50,000 × 50,000 pixels, from its header alone', async () => {
    const bomb = pngDeclaring(50_000, 50_000);
    expect(bomb.byteLength).toBeLessThan(2_000);
    expect(await imageHeaderProblem(bomb)).toEqual({
      kind: 'pixels',
      width: 50_000,
      height: 50_000,
      maxMegapixels: 40,
    });
  });

  it('refuses an animation of more frames than the limit', async () => {
    expect(await imageHeaderProblem(await gifWithFrames(150))).toEqual({ kind: 'frames', frames: 150, maxFrames: 100 });
  });

  it('answers unreadable for bytes no decoder knows', async () => {
    expect(await imageHeaderProblem(new TextEncoder().encode('not an image at all'))).toEqual({ kind: 'unreadable' });
  });
});
