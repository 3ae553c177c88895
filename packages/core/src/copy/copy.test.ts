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

describe('copy: files left out of what the model sees', () => {
  it('says why each one could not be read, and nothing for an older image', () => {
    const notes = [
      copy.modelFileNote({ name: 'older.png', reason: 'older_image' }),
      copy.modelFileNote({ name: 'archive.zip', reason: 'unsupported' }),
      copy.modelFileNote({ name: 'broken.png', reason: 'damaged' }),
      copy.modelFileNote({ name: 'log.txt', reason: 'too_large', kind: 'text file', size: 204_801, limit: 204_800 }),
      copy.modelFileNote({
        name: 'scan.pdf',
        reason: 'too_large',
        kind: 'PDF',
        size: 25 * 1024 * 1024,
        limit: 20 * 1024 * 1024,
      }),
      copy.modelFileNote({
        name: 'camera.png',
        reason: 'image_refused',
        problem: { kind: 'pixels', width: 10_000, height: 6_000, maxMegapixels: 40 },
      }),
      copy.modelFileNote({
        name: 'flip.gif',
        reason: 'image_refused',
        problem: { kind: 'frames', frames: 150, maxFrames: 100 },
      }),
      copy.modelFileNote({ name: 'old.pdf', reason: 'over_request', limit: 30 * 1024 * 1024 }),
    ];
    expect(notes).toEqual([
      undefined,
      "📎 I couldn't read “archive.zip”: it isn't an image (PNG, JPEG, GIF or WebP), a text file or a PDF.",
      "📎 I couldn't read “broken.png”: it seems to be damaged.",
      "📎 I couldn't read “log.txt”: it is 201 KiB, and a text file may be at most 200 KiB.",
      "📎 I couldn't read “scan.pdf”: it is 25.0 MiB, and a PDF may be at most 20.0 MiB.",
      "📎 I couldn't read “camera.png”: it is 10,000 × 6,000 pixels, and the limit is 40 megapixels.",
      "📎 I couldn't read “flip.gif”: it has 150 frames, and the limit is 100.",
      '📎 I left out “old.pdf”: together with the newer files it is more than the 30.0 MiB I can send at once.',
    ]);
  });
});

describe('copy.quotaReached', () => {
  it('says when the quota resets in minutes, then in hours past an hour and a half', () => {
    expect(copy.quotaReached('images', 5, 89 * 60)).toContain('in about 89 minutes.');
    expect(copy.quotaReached('images', 5, 20 * 3_600 + 600)).toContain('in about 20 hours.');
  });
});
