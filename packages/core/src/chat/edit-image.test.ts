import { describe, expect, it } from 'vitest';
import { tinyPng } from '../genai/test-fixtures.js';
import type { GeneratedImage, InputImage } from '../genai/types.js';
import { editImage } from './edit-image.js';
import type { ChatDeps } from './deps.js';
import type { ImageModel } from './ports.js';
import { RecordingSurface } from './testing/recording-surface.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const target = { channelId: 'C1', threadId: 'T1' };

function deps(surface: RecordingSurface, images: ImageModel): ChatDeps {
  const chat = {
    streamMessage: () => {
      throw new Error('not used');
    },
  };
  return { surface, images, chat, config: { imageModel: 'img', chatModel: 'chat' }, logger: silent };
}

function recordingModel(): ImageModel & { sent: InputImage[] } {
  const sent: InputImage[] = [];
  return {
    sent,
    async generateImages(_model, input): Promise<GeneratedImage[]> {
      if (input.image !== undefined) sent.push(input.image);
      return [{ mimeType: 'image/png', extension: 'png', bytes: tinyPng() }];
    },
  };
}

describe('editImage', () => {
  it('edits the first image among the candidates, skipping other files', async () => {
    const surface = new RecordingSurface({ files: { second: tinyPng() } });
    const model = recordingModel();
    const candidates = [
      { id: 'notes', name: 'notes.txt', mimeType: 'text/plain' },
      { id: 'second', name: 'photo.png' },
      { id: 'third', name: 'other.png', mimeType: 'image/png' },
    ];
    expect(await editImage({ target, instruction: 'brighter', candidates }, deps(surface, model))).toBe('done');
    expect(surface.downloads).toEqual(['second']);
    expect(model.sent.map((image) => image.mimeType)).toEqual(['image/png']);
    expect(surface.uploads[0]?.files[0]?.name).toBe('brighter-1.png');
  });

  it('says there is no image to edit, sending nothing', async () => {
    const surface = new RecordingSurface();
    const model = recordingModel();
    expect(await editImage({ target, instruction: 'brighter', candidates: [] }, deps(surface, model))).toBe('rejected');
    expect(surface.texts()[0]).toMatch(/^I couldn't find an image to edit/);
    expect(model.sent).toEqual([]);
  });

  it('tells the user when the download fails', async () => {
    const surface = new RecordingSurface();
    const model = recordingModel();
    const instant = { now: () => 0, sleep: async () => {} };
    const candidates = [{ id: 'gone', name: 'gone.png', mimeType: 'image/png' }];
    const outcome = await editImage({ target, instruction: 'brighter', candidates }, { ...deps(surface, model), clock: instant });
    expect(outcome).toBe('rejected');
    expect(surface.texts()).toEqual(['I couldn\'t download “gone.png”. Trying again may help.']);
    expect(model.sent).toEqual([]);
  });
});
