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
  it('a mention with an image and an instruction is an edit the model asks for, of that image', async () => {
    const before = serviceCalls();
    const surface = new RecordingSurface({ files, limits: { minEditIntervalMs: 20, minPostIntervalMs: 20 } });
    const trigger = message(alice, 'make it black and white', [png]);
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('done');
    const edits = service.emulator.requests
      .slice(before)
      .filter((request) => request.path.includes(':generateContent'));
    expect(edits).toHaveLength(1);
    const body = edits[0]?.body as SentImage;
    const sent = body.contents[0]?.parts.find((part) => part.inlineData !== undefined);
    expect(sent?.inlineData?.data).toBe(Buffer.from(tinyPng()).toString('base64'));
    expect(surface.uploads).toHaveLength(1);
    const uploaded = surface.uploads[0]?.files[0];
    expect((await fileTypeFromBuffer(uploaded?.bytes ?? new Uint8Array()))?.mime).toBe(uploaded?.mimeType);
  });

  it("answers a question about the bot's own image in the thread, editing nothing", async () => {
    const before = serviceCalls();
    const trigger = message(alice, 'what is in this picture?');
    const thread = [message(bob, 'first', [older]), message(bot, 'here', [png]), trigger];
    const surface = new RecordingSurface({ files, thread });
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('done');
    expect(surface.uploads).toHaveLength(0);
    expect(surface.texts().join('\n')).toMatch(/pixels, PNG/);
    const paths = service.emulator.requests.slice(before).map((request) => request.path);
    expect(paths.every((path) => path === '/v1/messages')).toBe(true);
  });

  it('converses when there is no image anywhere', async () => {
    const trigger = message(alice, 'what is the capital of France?');
    const surface = new RecordingSurface({ progress: true, limits: { minEditIntervalMs: 40 }, thread: [trigger] });
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('done');
    expect(surface.uploads).toHaveLength(0);
    expect(surface.texts()).toHaveLength(1);
    expect(surface.texts()[0]?.length).toBeGreaterThan(0);
  });

  it('answers with a note for a file the model cannot read, and the conversation still goes', async () => {
    const surface = new RecordingSurface({ files });
    const trigger = message(alice, 'what is this?', [{ id: 'F-bmp', name: 'scan.bmp', mimeType: 'image/bmp' }]);
    expect(await handleMention({ target, trigger }, service.deps(surface))).toBe('done');
    expect(surface.texts().join('\n')).toContain("📎 I couldn't read “scan.bmp”");
    expect(surface.uploads).toHaveLength(0);
  });
});

describe('handleMention under the job scheduler', () => {
  it("passes the user on to the conversation, so the scheduler's answer reaches them before anything is read", async () => {
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
