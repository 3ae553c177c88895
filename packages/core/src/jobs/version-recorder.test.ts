import { describe, expect, it, vi } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { MemoryVersions } from '../../testing/memory-versions.js';
import type { NewImageVersion } from '../store/index.js';
import type { UploadFile } from '../surface/surface.js';
import type { ChatJob } from './chat-job.js';
import { sha256Hex } from './image-digest.js';
import { versionRecorder } from './version-recorder.js';

vi.mock('./image-digest.js', async (actual) => {
  const real = await actual<typeof import('./image-digest.js')>();
  return { sha256Hex: vi.fn(real.sha256Hex) };
});

const job: ChatJob = {
  id: 'job-1',
  platform: 'slack',
  channelId: 'C1',
  userId: 'U1',
  input: { kind: 'imagine', imagine: { target: { channelId: 'C1' }, prompt: 'a fox', userId: 'U1' } },
};

const files: UploadFile[] = [
  { name: 'a-fox-1.png', mimeType: 'image/png', bytes: tinyPng() },
  { name: 'a-fox-2.png', mimeType: 'image/png', bytes: tinyPng() },
];

function counted() {
  const versions = new MemoryVersions();
  const records: NewImageVersion[] = [];
  const record = (version: NewImageVersion) => {
    records.push(version);
    return versions.record(version);
  };
  return {
    versions,
    records,
    store: { versions: { record }, stored: <T>(_what: string, call: () => Promise<T>) => call() },
  };
}

describe('versionRecorder', () => {
  it('hashes each image of an upload once, numbers it before the upload and adds its ids after', async () => {
    vi.mocked(sha256Hex).mockClear();
    const { versions, records, store } = counted();
    const recorder = versionRecorder(job, () => undefined, store);
    expect(await recorder.before(files, 0)).toEqual([1, 1]);
    await recorder.after(files, { messageId: 'M1', fileIds: ['F1', 'F2'] }, 0);
    expect(vi.mocked(sha256Hex)).toHaveBeenCalledTimes(2);
    expect(records.map((version) => [version.index, version.messageId, version.fileId])).toEqual([
      [0, undefined, undefined],
      [1, undefined, undefined],
      [0, 'M1', 'F1'],
      [1, 'M1', 'F2'],
    ]);
    expect(await versions.get({ jobId: 'job-1', index: 1 })).toMatchObject({
      number: 1,
      fileId: 'F2',
      prompt: 'a fox',
    });
  });

  it('records an upload that learnt no ids once', async () => {
    vi.mocked(sha256Hex).mockClear();
    const { records, store } = counted();
    const recorder = versionRecorder(job, () => undefined, store);
    await recorder.before(files, 0);
    await recorder.after(files, {}, 0);
    expect([vi.mocked(sha256Hex).mock.calls.length, records.length]).toEqual([2, 2]);
  });

  it('records an upload a crashed run made, found with its ids, once', async () => {
    vi.mocked(sha256Hex).mockClear();
    const { records, store } = counted();
    await versionRecorder(job, () => undefined, store).after(files, { messageId: 'M1', fileIds: ['F1', 'F2'] }, 2);
    expect([vi.mocked(sha256Hex).mock.calls.length, records.map((version) => version.index)]).toEqual([2, [2, 3]]);
  });
});
