import { describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import type { MessageRef, UploadFile } from '../surface/surface.js';
import type { JobStep, NewJobStep } from '../store/index.js';
import { DELETED_STEP, recordedSurface, UPLOADED_STEP, type UploadRecorder } from './recorded-surface.js';

class DeletingSurface extends RecordingSurface {
  readonly resultStandsAlone = true;
  readonly deleted: string[] = [];

  async delete(message: MessageRef): Promise<void> {
    this.deleted.push(message.messageId);
  }
}

function steps() {
  const recorded: JobStep[] = [];
  return {
    recorded,
    jobs: {
      recordStep: async (_id: string, step: NewJobStep) => {
        recorded.push({ ...step, at: new Date() });
        return true;
      },
    },
  };
}

const target = { channelId: 'C1' };
const files: UploadFile[] = [{ name: 'a-1.png', mimeType: 'image/png', bytes: tinyPng() }];

describe('recordedSurface', () => {
  it('leaves every member it does not record to the platform surface, one the port gains later included', async () => {
    const seen: string[] = [];
    const inner = Object.assign(new RecordingSurface(), {
      markTurnedAway: async (message: MessageRef) => {
        seen.push(`turned away ${message.messageId}`);
      },
      // A member ChatSurface does not have yet: it reaches the platform surface untouched.
      pin: async (message: MessageRef) => {
        seen.push(`pinned ${message.messageId}`);
      },
    });
    const surface = recordedSurface(inner, { id: 'job', steps: [] }, steps().jobs);
    const message = { channelId: 'C1', messageId: 'm1' };
    await surface.markTurnedAway?.(message);
    await (surface as unknown as typeof inner).pin(message);
    expect(seen).toEqual(['turned away m1', 'pinned m1']);
    expect([surface.limits, 'postedImage' in surface, 'delete' in surface, surface.resuming]).toEqual([
      inner.limits,
      'postedImage' in inner,
      false,
      false,
    ]);
  });

  it('remembers a message it deleted: run again, the job neither edits nor deletes it again', async () => {
    const first = new DeletingSurface();
    const { recorded, jobs } = steps();
    const surface = recordedSurface(first, { id: 'job', steps: [] }, jobs);
    expect(surface.resultStandsAlone).toBe(true);
    const progress = await surface.post(target, 'Generating…');
    await surface.delete?.(progress);
    expect(recorded.map((step) => [step.name, step.messageId])).toEqual([
      ['posted', progress.messageId],
      [DELETED_STEP, progress.messageId],
    ]);

    const again = new DeletingSurface();
    const resumed = recordedSurface(again, { id: 'job', steps: recorded }, steps().jobs);
    const shown = await resumed.post(target, 'Generating…');
    expect(shown.messageId).toBe(progress.messageId);
    await resumed.edit(shown, 'Done');
    await resumed.delete?.(shown);
    expect([again.messages, again.deleted, again.editCount]).toEqual([[], [], 0]);
  });

  it('records the images before they are posted (with the buttons that gives) and again once they are, keeping the text', async () => {
    const inner = new RecordingSurface();
    const calls: string[] = [];
    const recorder: UploadRecorder = {
      before: async (_files, first) => {
        calls.push(`before ${first} (${inner.uploads.length} uploaded)`);
        return [7 + first];
      },
      after: async (_files, receipt, first) => {
        calls.push(`after ${first} ${receipt.messageId ?? 'no id'}`);
      },
    };
    const surface = recordedSurface(inner, { id: 'job', steps: [] }, steps().jobs, {
      recorder,
      buttons: (first, count, numbers) => [
        { id: `b${first}-${count}-${numbers?.join()}`, label: 'Edit', action: 'edit' },
      ],
    });
    await surface.uploadFiles(target, files, 'the use case’s own text');
    // Numbered ahead by the use case (for a text naming the numbers): recorded once, not again at the upload.
    expect(await surface.numberImages(files)).toEqual([8]);
    await surface.uploadFiles(target, files, 'v8 · from v7');
    expect(calls).toEqual(['before 0 (0 uploaded)', 'after 0 no id', 'before 1 (1 uploaded)', 'after 1 no id']);
    expect(inner.uploads.map((upload) => [upload.comment, upload.buttons?.[0]?.id])).toEqual([
      ['the use case’s own text', 'b0-1-7'],
      ['v8 · from v7', 'b1-1-8'],
    ]);
  });

  it('numbers no images of an upload a run before made', async () => {
    const recorder: UploadRecorder = { before: async () => [1], after: async () => {} };
    const made = { name: 'uploaded', index: 0, messageId: 'M1', at: new Date() };
    const surface = recordedSurface(new RecordingSurface(), { id: 'job', steps: [made] }, steps().jobs, { recorder });
    expect(await surface.numberImages(files)).toBeUndefined();
  });

  describe('postedBefore', () => {
    /** A recorder and buttons that say which job-wide image index each upload starts at. */
    function numbering() {
      const firsts: string[] = [];
      const recorder: UploadRecorder = {
        before: async (given, first) => {
          firsts.push(`before ${first} (${given.length})`);
          return given.map((_, offset) => first + offset + 1);
        },
        after: async (_given, receipt, first) => {
          firsts.push(`after ${first} ${receipt.messageId}`);
        },
      };
      const buttons = (first: number, count: number) => [
        { id: `b${first}-${count}`, label: 'Edit', action: 'edit' as const },
      ];
      return { firsts, recorder, buttons };
    }

    const upload = (index: number, extra: Partial<JobStep>): JobStep => ({
      name: UPLOADED_STEP,
      index,
      messageId: `M${index}`,
      at: new Date(),
      ...extra,
    });

    it('takes a recorded upload, and the next upload goes on after it, numbered past its files', async () => {
      const inner = new RecordingSurface();
      const { recorded, jobs } = steps();
      const { firsts, recorder, buttons } = numbering();
      const made = upload(0, { fileIds: ['F1', 'F2'], files: 2 });
      const surface = recordedSurface(inner, { id: 'job', steps: [made] }, jobs, { recorder, buttons });
      expect(surface.postedBefore()).toEqual({ messageId: 'M0', fileIds: ['F1', 'F2'], files: 2 });
      // Taken once: the next call finds no upload a run before made.
      expect(surface.postedBefore()).toBeUndefined();
      expect(await surface.numberImages(files)).toEqual([3]);
      await surface.uploadFiles(target, files, 'the next result');
      expect(firsts).toEqual(['before 2 (1)', 'after 2 undefined']);
      expect(inner.uploads.map((shown) => [shown.comment, shown.buttons?.[0]?.id])).toEqual([
        ['the next result', 'b2-1'],
      ]);
      expect(recorded.map(({ name, index, files: count }) => [name, index, count])).toEqual([[UPLOADED_STEP, 1, 1]]);
    });

    it('counts an upload recorded before the file count was kept by its file ids, else as one image', async () => {
      for (const [made, first] of [
        [upload(0, { fileIds: ['F1', 'F2', 'F3'] }), 3],
        [upload(0, {}), 1],
      ] as const) {
        const { firsts, recorder } = numbering();
        const surface = recordedSurface(new RecordingSurface(), { id: 'job', steps: [made] }, steps().jobs, {
          recorder,
        });
        expect(surface.postedBefore()).toEqual({ messageId: 'M0', fileIds: made.fileIds, files: first });
        await surface.uploadFiles(target, files, 'next');
        expect(firsts[0]).toBe(`before ${first} (1)`);
      }
    });

    it('takes recorded uploads in order, and nothing when the next upload was not made', async () => {
      const inner = new RecordingSurface();
      const { firsts, recorder } = numbering();
      const made = [upload(0, { files: 1, fileIds: ['F1'] }), upload(1, { files: 4, fileIds: ['F2'] })];
      const surface = recordedSurface(inner, { id: 'job', steps: made }, steps().jobs, { recorder });
      expect([surface.postedBefore()?.messageId, surface.postedBefore()?.messageId]).toEqual(['M0', 'M1']);
      expect(surface.postedBefore()).toBeUndefined();
      await surface.uploadFiles(target, files, 'third');
      expect(firsts[0]).toBe('before 5 (1)');
      expect(inner.uploads).toHaveLength(1);
    });

    it('takes nothing on a first run: the first upload is made and numbered from the start', async () => {
      const inner = new RecordingSurface();
      const { firsts, recorder } = numbering();
      const surface = recordedSurface(inner, { id: 'job', steps: [] }, steps().jobs, { recorder });
      expect(surface.postedBefore()).toBeUndefined();
      await surface.uploadFiles(target, files, 'first');
      expect(firsts[0]).toBe('before 0 (1)');
      expect(inner.uploads).toHaveLength(1);
    });
  });
});
