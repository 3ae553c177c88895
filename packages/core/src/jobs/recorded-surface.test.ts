import { describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import type { MessageRef, UploadFile } from '../surface/surface.js';
import type { JobStep, NewJobStep } from '../store/index.js';
import { DELETED_STEP, recordedSurface, type UploadRecorder } from './recorded-surface.js';

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
});
