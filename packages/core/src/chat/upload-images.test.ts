import { describe, expect, it } from 'vitest';
import type { GeneratedImage } from '../genai/types.js';
import type { ChatDeps } from './deps.js';
import { uploadImages } from './upload-images.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { ChannelBudget } from '../rendering/channel-budget.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function image(bytes: number, extension = 'png'): GeneratedImage {
  return { mimeType: `image/${extension}`, extension, bytes: new Uint8Array(bytes) };
}

function deps(surface: RecordingSurface): ChatDeps {
  const unused = () => {
    throw new Error('not used');
  };
  return {
    surface,
    images: { generateImages: unused },
    chat: { streamMessage: unused },
    config: { imageModel: 'i', chatModel: 'c' },
    logger: silent,
    channels: new ChannelBudget(),
  };
}

describe('uploadImages', () => {
  it('groups files within the per-message count and size, leaving out files over the limit', async () => {
    const surface = new RecordingSurface({ limits: { maxFilesPerMessage: 3, maxUploadBytes: 1_000 } });
    const images = [
      image(400),
      image(400),
      image(400, 'jpg'),
      image(1_500),
      image(100),
      image(100),
      image(100),
      image(100),
    ];
    const result = await uploadImages(deps(surface), { channelId: 'C' }, images, 'sunset-at-sea', {
      text: '🎨 “Sunset”',
    });
    expect(result).toEqual({ uploaded: 7, tooLarge: 1, limitBytes: 1_000 });
    expect(surface.uploads.map((upload) => upload.files.map((file) => file.bytes.byteLength))).toEqual([
      [400, 400],
      [400, 100, 100],
      [100, 100],
    ]);
    // One tag for the result's files, from their bytes: the same request's next result is named apart.
    const tag = surface.uploads[0]?.files[0]?.name.match(/-([0-9a-f]{6})\.png$/)?.[1] ?? 'none';
    expect(surface.uploads[0]?.files.map((file) => file.name)).toEqual([
      `sunset-at-sea-1-${tag}.png`,
      `sunset-at-sea-2-${tag}.png`,
    ]);
    expect(surface.uploads[1]?.files[0]?.name).toBe(`sunset-at-sea-3-${tag}.jpg`);
    const other = new RecordingSurface();
    await uploadImages(deps(other), { channelId: 'C' }, [image(401)], 'sunset-at-sea', { text: '🎨 “Sunset”' });
    expect(other.uploads[0]?.files[0]?.name).toMatch(/^sunset-at-sea-1-[0-9a-f]{6}\.png$/);
    expect(other.uploads[0]?.files[0]?.name).not.toBe(`sunset-at-sea-1-${tag}.png`);
  });
});
