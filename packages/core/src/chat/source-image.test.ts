import { describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { AttachmentUnavailableError } from '../files/attachment-unavailable.js';
import { ChannelBudget } from '../rendering/channel-budget.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps } from './deps.js';
import { loadSourceImage } from './source-image.js';
import { pngDeclaring } from '../../testing/image-bombs.js';
import { RecordingSurface } from '../../testing/recording-surface.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const instant = { now: () => 0, sleep: async () => {} };
const source = { id: 'F1', name: 'photo.png', mimeType: 'image/png' };

function deps(surface: RecordingSurface): ChatDeps {
  const unused = () => {
    throw new Error('not used');
  };
  return {
    surface,
    images: { generateImages: unused },
    chat: { streamMessage: unused },
    config: { imageModel: 'img', chatModel: 'chat' },
    logger: silent,
    clock: instant,
    channels: new ChannelBudget(),
  };
}

describe('loadSourceImage', () => {
  it('loads an image that passes every check', async () => {
    const surface = new RecordingSurface({ files: { F1: tinyPng() } });
    expect(await loadSourceImage(deps(surface), source, undefined)).toMatchObject({ ok: true });
  });

  it('answers a permanent refusal at once, without trying again', async () => {
    const surface = new RecordingSurface();
    surface.failures.download.push(new AttachmentUnavailableError('not_allowed', 'sign-in page'));
    expect(await loadSourceImage(deps(surface), source, undefined)).toEqual({
      ok: false,
      answer: copy.fileUnavailable('photo.png', 'not_allowed'),
    });
    expect(surface.failures.download).toEqual([]);
  });

  it('tells the size when the download ran over the cap', async () => {
    const surface = new RecordingSurface();
    surface.failures.download.push(new AttachmentUnavailableError('too_large', 'over the cap'));
    const loaded = await loadSourceImage(deps(surface), source, undefined);
    expect(loaded).toEqual({
      ok: false,
      answer: copy.unsupportedImage('photo.png', copy.tooLargeReason(undefined, 14 * 1024 * 1024)),
    });
  });

  it('tries a transient failure again', async () => {
    const surface = new RecordingSurface({ files: { F1: tinyPng() } });
    surface.failures.download.push(new Error('connection reset'));
    expect(await loadSourceImage(deps(surface), source, undefined)).toMatchObject({ ok: true });
  });

  it('refuses an image bomb before anything is sent', async () => {
    const surface = new RecordingSurface({ files: { F1: pngDeclaring(50_000, 50_000) } });
    expect(await loadSourceImage(deps(surface), source, undefined)).toEqual({
      ok: false,
      answer: copy.unsupportedImage('photo.png', copy.tooManyPixels(50_000, 50_000, 40)),
    });
  });
});
