import { fileTypeFromBuffer } from 'file-type';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { JobScheduler } from '../scheduling/job-scheduler.js';
import { handleMention } from './handle-mention.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { startService, type Service } from '../../testing/service.js';
import { alice, bob, bot, message } from '../../testing/thread.js';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const target = { channelId: 'C1', threadId: '1700000000.000200' };
const png = { id: 'F-png', name: 'cat.png', mimeType: 'image/png', size: tinyPng().byteLength };
const older = { id: 'F-old', name: 'old.png', mimeType: 'image/png' };
const files = {
  'F-png': tinyPng(),
  'F-old': tinyPng(),
  'F-bmp': new Uint8Array([0x42, 0x4d, ...new Array<number>(60).fill(0)]),
};

function serviceCalls(): number {
  return service.emulator.requests.length;
}

type SentImage = {
  contents: Array<{ parts: Array<{ text?: string; inlineData?: { mimeType: string; data: string } }> }>;
};

describe('handleMention against the emulator', () => {
  it('edits an image attached to the mention and uploads the result into the thread', async () => {
    const surface = new RecordingSurface({ files });
    const trigger = message(alice, 'make it blue', [png]);
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('done');
    const sent = service.emulator.requests.at(-1)?.body as SentImage;
    const parts = sent.contents[0]?.parts ?? [];
    expect(parts[0]?.text).toBe('make it blue');
    expect(parts[1]?.inlineData?.mimeType).toBe('image/png');
    expect(parts[1]?.inlineData?.data).toBe(Buffer.from(tinyPng()).toString('base64'));
    expect(surface.uploads).toHaveLength(1);
    const [upload] = surface.uploads;
    expect(upload?.target).toEqual(target);
    expect(upload?.comment).toContain('make it blue');
    const file = upload?.files[0];
    expect(file?.name).toMatch(/^cat-make-it-blue-1-[0-9a-f]{6}\.(png|jpg|webp)$/);
    expect((await fileTypeFromBuffer(file?.bytes ?? new Uint8Array()))?.mime).toBe(file?.mimeType);
    expect(surface.texts()).toEqual(['🖌️ Done: 1 edited image for “make it blue”.']);
  });

  it('edits the image of the message the mention replies to', async () => {
    const surface = new RecordingSurface({ files });
    const referenced = message(bob, 'look', [png]);
    const trigger = message(alice, 'crop it');
    expect(await handleMention({ target, trigger, referenced }, service.deps(surface))).toBe('done');
    expect(surface.downloads).toEqual(['F-png']);
  });

  it("edits the thread's latest image when the mention carries none", async () => {
    const trigger = message(alice, 'now in sepia');
    const thread = [message(bob, 'first', [older]), message(bot, 'here', [png]), message(alice, 'nice'), trigger];
    const surface = new RecordingSurface({ files, thread });
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('done');
    expect(surface.downloads).toEqual(['F-png']);
    expect(surface.uploads).toHaveLength(1);
  });

  it('converses when there is no image anywhere', async () => {
    const trigger = message(alice, 'what is the capital of France?');
    const surface = new RecordingSurface({ progress: true, limits: { minEditIntervalMs: 40 }, thread: [trigger] });
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('done');
    expect(surface.uploads).toHaveLength(0);
    expect(surface.texts()).toHaveLength(1);
    expect(surface.texts()[0]?.length).toBeGreaterThan(0);
  });

  it('refuses a file that is not an image, sending nothing', async () => {
    const before = serviceCalls();
    const surface = new RecordingSurface({ files });
    const trigger = message(alice, 'edit this', [{ id: 'F-pdf', name: 'report.pdf', mimeType: 'application/pdf' }]);
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('rejected');
    expect(surface.texts()).toEqual([
      "I can only edit images (PNG, JPEG, WebP, GIF or HEIC), and “report.pdf” isn't one.",
    ]);
    expect(serviceCalls()).toBe(before);
  });

  it('never offers an image type the service does not take for an edit, sending nothing', async () => {
    const before = serviceCalls();
    const surface = new RecordingSurface({ files });
    const trigger = message(alice, 'edit this', [{ id: 'F-bmp', name: 'scan.bmp', mimeType: 'image/bmp' }]);
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('rejected');
    expect(surface.texts()).toEqual([
      "I can only edit images (PNG, JPEG, WebP, GIF or HEIC), and “scan.bmp” isn't one.",
    ]);
    expect(serviceCalls()).toBe(before);
  });

  it('tells a file declared an image whose bytes are none as not an image, checked from its bytes', async () => {
    const before = serviceCalls();
    const surface = new RecordingSurface({ files });
    const trigger = message(alice, 'edit this', [{ id: 'F-bmp', name: 'photo.png', mimeType: 'image/png' }]);
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('rejected');
    expect(surface.texts()).toEqual([
      "I can only edit images (PNG, JPEG, WebP, GIF or HEIC), and “photo.png” isn't one.",
    ]);
    expect(serviceCalls()).toBe(before);
  });

  it('refuses an image declared too large before downloading it', async () => {
    const surface = new RecordingSurface({ files });
    const trigger = message(alice, 'edit', [{ ...png, size: 50 * 1024 * 1024 }]);
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('rejected');
    expect(surface.downloads).toEqual([]);
    expect(surface.texts()[0]).toMatch(/it is 50\.0 MiB, and the limit is 14\.0 MiB/);
  });

  it('asks for an instruction when the mention has none', async () => {
    const surface = new RecordingSurface({ files });
    expect(await handleMention({ target, trigger: message(alice, '  ', [png]) }, service.deps(surface))).toBe(
      'rejected',
    );
    expect(surface.texts()[0]).toMatch(/^Tell me how to change the image/);
  });

  it('ends in a short human message when the edit is blocked', async () => {
    const surface = new RecordingSurface({ files });
    const trigger = message(alice, 'do something [fault:safety]', [png]);
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('failed');
    expect(surface.texts()).toHaveLength(1);
    expect(surface.texts()[0]).toMatch(/^⚠️ Couldn't edit the image for .*: The model declined this for safety reasons/);
    expect(surface.uploads).toHaveLength(0);
  });
});

describe('handleMention under the job scheduler', () => {
  it("passes the user on to the edit or the conversation, so the scheduler's answer reaches them", async () => {
    const scheduler = new JobScheduler();
    scheduler.close();
    const before = serviceCalls();
    const editing = new RecordingSurface({ files });
    const edit = { target, trigger: message(alice, 'make it blue', [png]), userId: alice.id };
    expect(await handleMention(edit, { ...service.deps(editing), scheduler })).toBe('rejected');
    expect(editing.texts()).toEqual(["🔄 I'm restarting. “make it blue” will continue after the restart."]);

    expect(editing.downloads).toEqual([]);

    const talking = new RecordingSurface({ progress: true });
    let threadReads = 0;
    talking.readThread = async () => {
      threadReads += 1;
      return [];
    };
    const question = { target, trigger: message(bob, 'how are you?'), userId: bob.id };
    expect(await handleMention(question, { ...service.deps(talking), scheduler })).toBe('rejected');
    // One short answer: no thread read, no placeholder before it.
    expect(talking.texts()).toEqual(["🔄 I'm restarting. “how are you?” will continue after the restart."]);
    expect(talking.messages[0]?.editTimes).toEqual([]);
    expect(threadReads).toBe(0);
    expect(serviceCalls()).toBe(before);
  });
});
