import { describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { JobScheduler } from '../scheduling/job-scheduler.js';
import type { GeneratedImage, InputImage } from '../genai/types.js';
import { editImage } from './edit-image.js';
import type { ChatDeps } from './deps.js';
import type { ImageModel } from '../surface/ports.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { ChannelBudget } from '../rendering/channel-budget.js';
import { eventually } from '@genbot/test-servers';
import { noOutputError } from '../genai/no-output.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const target = { channelId: 'C1', threadId: 'T1' };

function deps(surface: RecordingSurface, images: ImageModel): ChatDeps {
  const chat = {
    streamMessage: () => {
      throw new Error('not used');
    },
  };
  return {
    surface,
    images,
    chat,
    config: { imageModel: 'img', chatModel: 'chat' },
    logger: silent,
    channels: new ChannelBudget(),
  };
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
    expect(surface.uploads[0]?.files[0]?.name).toMatch(/^photo-brighter-1-[0-9a-f]{6}\.png$/);
  });

  it('logs a safety block as a warning with its reason, not as an error with a stack', async () => {
    const surface = new RecordingSurface({ files: { photo: tinyPng() } });
    const logged: { level: string; details: object; message?: string | undefined }[] = [];
    const logger = Object.fromEntries(
      (['debug', 'info', 'warn', 'error'] as const).map((level) => [
        level,
        (details: object, message?: string) => logged.push({ level, details, message }),
      ]),
    ) as unknown as ChatDeps['logger'];
    const blocked: ImageModel = {
      async generateImages() {
        throw noOutputError({ promptFeedback: { blockReason: 'SAFETY' } }, 'image');
      },
    };
    const candidates = [{ id: 'photo', name: 'photo.png', mimeType: 'image/png' }];
    const outcome = await editImage(
      { target, instruction: 'brighter', candidates },
      { ...deps(surface, blocked), logger },
    );
    expect(outcome).toBe('failed');
    expect(logged.filter((line) => line.level === 'error')).toEqual([]);
    expect(logged.filter((line) => line.level === 'warn')).toEqual([
      {
        level: 'warn',
        details: { reason: 'The service returned no image: the prompt was blocked (SAFETY).' },
        message: 'image edit refused',
      },
    ]);
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
    const outcome = await editImage(
      { target, instruction: 'brighter', candidates },
      { ...deps(surface, model), clock: instant },
    );
    expect(outcome).toBe('rejected');
    expect(surface.texts()).toEqual(["I couldn't download “gone.png”. Trying again may help."]);
    expect(model.sent).toEqual([]);
  });
});

describe('editImage under the job scheduler', () => {
  const instant = { now: () => 0, sleep: async () => {} };
  const candidates = [{ id: 'photo', name: 'photo.png', mimeType: 'image/png' }];

  /** A model whose first call waits until `release()`; later calls answer at once. */
  function heldModel(): ImageModel & { calls: number; release: () => void } {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = {
      calls: 0,
      release: () => release(),
      async generateImages(): Promise<GeneratedImage[]> {
        model.calls += 1;
        if (model.calls === 1) await held;
        return [{ mimeType: 'image/png', extension: 'png', bytes: tinyPng() }];
      },
    };
    return model;
  }

  it('shows a waiting edit its place in line, then edits as before', async () => {
    const surface = new RecordingSurface({ files: { photo: tinyPng() } });
    const history: string[] = [];
    const edit = surface.edit.bind(surface);
    surface.edit = async (message, text) => {
      if (message.messageId === 'm2') history.push(text);
      return edit(message, text);
    };
    const model = heldModel();
    const scheduled = {
      ...deps(surface, model),
      clock: instant,
      scheduler: new JobScheduler({ image: { concurrency: 1 } }),
    };
    const first = editImage({ target, instruction: 'brighter', candidates, userId: 'U1' }, scheduled);
    const second = editImage({ target, instruction: 'darker', candidates, userId: 'U2' }, scheduled);
    await eventually(() => surface.texts()[1]?.startsWith('⏳') === true);
    expect(surface.texts()[1]).toBe('⏳ Your edit “darker” is next in line.');
    model.release();
    expect(await Promise.all([first, second])).toEqual(['done', 'done']);
    // Posted as its place in line, then edited as the edit goes on.
    expect(history).toEqual(['🖌️ Editing the image: “darker”…', '🖌️ Done: 1 edited image for “darker”.']);
  });

  it('downloads the source only once the job is admitted', async () => {
    const surface = new RecordingSurface({ files: { photo: tinyPng() } });
    const model = heldModel();
    const scheduled = {
      ...deps(surface, model),
      clock: instant,
      scheduler: new JobScheduler({ image: { concurrency: 1 } }),
    };
    const first = editImage({ target, instruction: 'brighter', candidates, userId: 'U1' }, scheduled);
    const second = editImage({ target, instruction: 'darker', candidates, userId: 'U2' }, scheduled);
    await eventually(() => model.calls === 1 && surface.texts()[1]?.startsWith('⏳') === true);
    expect(surface.downloads).toEqual(['photo']);
    model.release();
    expect(await Promise.all([first, second])).toEqual(['done', 'done']);
    expect(surface.downloads).toEqual(['photo', 'photo']);
  });

  it('answers a user over their share once with when to try again; nothing is downloaded or sent', async () => {
    const surface = new RecordingSurface({ files: { photo: tinyPng() } });
    const model = heldModel();
    const scheduled = { ...deps(surface, model), scheduler: new JobScheduler({ image: { perUser: 1 } }) };
    const first = editImage({ target, instruction: 'brighter', candidates, userId: 'U1' }, scheduled);
    await eventually(() => model.calls === 1);
    expect(await editImage({ target, instruction: 'darker', candidates, userId: 'U1' }, scheduled)).toBe('rejected');
    // One short answer: no progress message before it, no download.
    expect(surface.texts().slice(1)).toEqual([
      '⏳ You already have requests on the way. Try again in about 20 seconds.',
    ]);
    expect(surface.downloads).toEqual(['photo']);
    expect(model.calls).toBe(1);
    model.release();
    expect(await first).toBe('done');
  });
});
