import { fileTypeFromBuffer } from 'file-type';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownBytes } from '../genai/owned-bytes.js';
import { copy } from '../copy/copy.js';
import { imagine } from './imagine.js';
import type { MessageRef } from '../surface/surface.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { API_KEY, startService, type Service } from '../../testing/service.js';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const channel = { channelId: 'C1' };

function imageRequests(): number {
  return service.emulator.requests.filter((request) => request.path.includes(':generateContent')).length;
}

describe('imagine against the emulator', () => {
  it('shows progress naming the prompt, uploads every image with the prompt, then says done', async () => {
    const surface = new RecordingSurface({ limits: { maxFilesPerMessage: 2 } });
    const prompt = 'a lighthouse at dusk [images:3] [format:webp]';
    const outcome = await imagine({ target: channel, prompt, aspectRatio: '16:9' }, service.deps(surface));
    expect(outcome).toBe('done');
    expect(surface.messages).toHaveLength(1);
    expect(surface.messages[0]?.text).toContain('“a lighthouse at dusk [images:3] [format:webp]”');
    expect(surface.messages[0]?.text).toMatch(/^🎨 Done: 3 images for/);
    // Three images, two files a message.
    expect(surface.uploads.map((upload) => upload.files.length)).toEqual([2, 1]);
    for (const upload of surface.uploads) {
      expect(upload.target).toEqual(channel);
      expect(upload.comment).toContain('a lighthouse at dusk');
      for (const file of upload.files) {
        expect(file.name).toMatch(/^a-lighthouse-at-dusk-\d-[0-9a-f]{6}\.webp$/);
        expect((await fileTypeFromBuffer(file.bytes))?.mime).toBe('image/webp');
      }
    }
    const sent = service.emulator.requests.at(-1)?.body as {
      generationConfig?: { imageConfig?: { aspectRatio?: string } };
    };
    expect(sent.generationConfig?.imageConfig?.aspectRatio).toBe('16:9');
  });

  it('answers bad input at once and sends nothing', async () => {
    const before = imageRequests();
    const surface = new RecordingSurface();
    const deps = service.deps(surface);
    expect(await imagine({ target: channel, prompt: 'a cat', aspectRatio: '7:3' }, deps)).toBe('rejected');
    expect(await imagine({ target: channel, prompt: '   ' }, deps)).toBe('rejected');
    expect(await imagine({ target: channel, prompt: 'x'.repeat(2_001) }, deps)).toBe('rejected');
    const [ratio, empty, long] = surface.texts();
    expect(ratio).toContain('1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9');
    expect(empty).toContain('/imagine');
    expect(long).toContain('2000');
    expect(surface.uploads).toHaveLength(0);
    expect(imageRequests()).toBe(before);
  });

  it('turns the progress message into a short human error on a safety block', async () => {
    const surface = new RecordingSurface();
    expect(await imagine({ target: channel, prompt: 'something [fault:safety]' }, service.deps(surface))).toBe(
      'failed',
    );
    expect(surface.texts()).toHaveLength(1);
    expect(surface.texts()[0]).toMatch(
      /^⚠️ Couldn't generate .*: The model declined this for safety reasons.*\. Rewording it may help\.$/,
    );
    expect(surface.uploads).toHaveLength(0);
  });

  it('says retrying may help when the service is down, without leaking the key or a stack', async () => {
    const surface = new RecordingSurface();
    expect(await imagine({ target: channel, prompt: 'a boat [fault:529]' }, service.deps(surface))).toBe('failed');
    const [text] = surface.texts();
    expect(text).toMatch(/overloaded.*Try again/i);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toMatch(/\n\s+at /);
    expect(service.logLines.join('')).not.toContain(API_KEY);
  });

  it('tells the user when the platform refuses the upload', async () => {
    const surface = new RecordingSurface();
    for (let i = 0; i < 5; i += 1) surface.failures.upload.push(new Error('upload refused'));
    expect(
      await imagine({ target: channel, prompt: 'a tree' }, { ...service.deps(surface), clock: instantClock }),
    ).toBe('failed');
    expect(surface.texts()).toEqual(["⚠️ The images were made but couldn't be uploaded here. Trying again may help."]);
  });
});

const instantClock = { now: () => Date.now(), sleep: async () => {} };

/** A surface whose results stand on their own (Slack's file messages): the progress message gives way to them. */
class StandingResults extends RecordingSurface {
  readonly resultStandsAlone = true;
  readonly deleted: string[] = [];
  refuseDeletes = false;

  async delete(message: MessageRef): Promise<void> {
    if (this.refuseDeletes) throw new Error('cant_delete_message');
    this.deleted.push(message.messageId);
    this.messages.splice(
      this.messages.findIndex((shown) => shown.ref.messageId === message.messageId),
      1,
    );
  }
}

describe('imagine where the result stands on its own', () => {
  it('deletes the progress message once every image is shown: the job leaves one message', async () => {
    const surface = new StandingResults();
    expect(await imagine({ target: channel, prompt: 'a quiet harbour' }, service.deps(surface))).toBe('done');
    expect(surface.deleted).toEqual(['m1']);
    expect(surface.texts()).toEqual([]);
    expect(surface.uploads).toHaveLength(1);
  });

  it('leaves a short line pointing at the result when the progress message cannot be deleted', async () => {
    const surface = new StandingResults();
    surface.refuseDeletes = true;
    expect(await imagine({ target: channel, prompt: 'a quiet harbour' }, service.deps(surface))).toBe('done');
    expect(surface.texts()).toEqual([copy.resultBelow]);
  });

  it('keeps its last word when no image could be shown', async () => {
    const surface = new StandingResults({ limits: { maxUploadBytes: 1 } });
    await imagine({ target: channel, prompt: 'a quiet harbour' }, service.deps(surface));
    expect(surface.deleted).toEqual([]);
    expect(surface.texts()).toEqual([copy.imagineDone('a quiet harbour', { uploaded: 0, tooLarge: 1, limitBytes: 1 })]);
  });
});

describe('imagine and the memory of its images', () => {
  /** An image model whose images each own their memory, as the client's do; `made` keeps them to look at. */
  function ownedImages(made: Uint8Array[]) {
    return {
      generateImages: async () => {
        const bytes = ownBytes(64 * 1024).fill(7);
        made.push(bytes);
        return [{ mimeType: 'image/png', extension: 'png', bytes }];
      },
    };
  }

  it('frees each image once its upload settles, after the surface had it whole', async () => {
    const made: Uint8Array[] = [];
    const surface = new RecordingSurface();
    const deps = { ...service.deps(surface), images: ownedImages(made) };
    expect(await imagine({ target: channel, prompt: 'a kite' }, deps)).toBe('done');
    expect(surface.uploads[0]?.files[0]?.bytes.byteLength).toBe(64 * 1024);
    expect(made.map((bytes) => bytes.byteLength)).toEqual([0]);
  });

  it('frees them when the platform refuses the upload too', async () => {
    const made: Uint8Array[] = [];
    const surface = new RecordingSurface();
    for (let i = 0; i < 5; i += 1) surface.failures.upload.push(new Error('upload refused'));
    const deps = { ...service.deps(surface), images: ownedImages(made), clock: instantClock };
    expect(await imagine({ target: channel, prompt: 'a kite' }, deps)).toBe('failed');
    expect(made.map((bytes) => bytes.byteLength)).toEqual([0]);
  });
});
