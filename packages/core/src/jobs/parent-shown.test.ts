import { describe, expect, it } from 'vitest';
import { MemoryVersions, version } from '../../testing/memory-versions.js';
import type { AttachmentRef, ResultAction } from '../surface/surface.js';
import type { ImageVersion, ImageVersionKey, JobRecord } from '../store/index.js';
import type { ChatJob, ChatJobInput } from './chat-job.js';
import { parentShown } from './parent-shown.js';
import { toNewJob } from './parse-chat-job.js';

const target = { channelId: 'C1' };
const v1Images: AttachmentRef[] = [{ id: 'v1-on-its-message', name: 'v1.png', mimeType: 'image/png', size: 100 }];
const v2Images: AttachmentRef[] = [{ id: 'v2-on-its-message', name: 'v2.png', mimeType: 'image/png', size: 100 }];

class Jobs {
  readonly #records = new Map<string, JobRecord>();

  add(id: string, input: ChatJobInput): void {
    const job: ChatJob = { id, platform: 'slack', channelId: 'C1', userId: 'U1', input };
    const now = new Date();
    this.#records.set(id, {
      ...toNewJob(job),
      state: 'finished',
      attempts: 1,
      steps: [],
      createdAt: now,
      updatedAt: now,
    });
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return this.#records.get(id);
  }
}

function pressed(kind: ResultAction, on: ImageVersionKey, shown?: readonly AttachmentRef[]): ChatJobInput {
  return { kind, action: { target, version: on, userId: 'U1', ...(shown === undefined ? {} : { shown }) } };
}

/** v1 drawn; v2 a variation of it, pressed on v1's result, which showed v1's images. */
async function setUp() {
  const versions = new MemoryVersions();
  const jobs = new Jobs();
  const v1 = { jobId: 'cmd-1', index: 0 };
  const v2 = { jobId: 'vary-2', index: 0 };
  await versions.record(version(v1.jobId, 0));
  await versions.record(version(v2.jobId, 0, { parent: v1, origin: 'varied' }));
  jobs.add(v2.jobId, pressed('vary', v1, v1Images));
  const get = async (key: ImageVersionKey): Promise<ImageVersion> => {
    const found = await versions.get(key);
    if (found === undefined) throw new Error(`no version ${key.jobId}`);
    return found;
  };
  return { versions, jobs, v1, v2, get };
}

describe('the images of a pressed version’s parent, as an earlier job was shown them', () => {
  it('for Undo and Re-roll: those the press that made the version was shown', async () => {
    const { versions, jobs, v2, get } = await setUp();
    expect(await parentShown('undo', await get(v2), { versions, jobs })).toEqual(v1Images);
    expect(await parentShown('reroll', await get(v2), { versions, jobs })).toEqual(v1Images);
  });

  it('none for an action that reads the pressed version only, or a version with no parent', async () => {
    const { versions, jobs, v1, v2, get } = await setUp();
    expect(await parentShown('vary', await get(v2), { versions, jobs })).toEqual([]);
    expect(await parentShown('reroll', await get(v1), { versions, jobs })).toEqual([]);
  });

  it('follows a Re-roll back to the press of the sibling it re-rolled', async () => {
    const { versions, jobs, v1, v2, get } = await setUp();
    const v3 = { jobId: 'reroll-3', index: 0 };
    await versions.record(version(v3.jobId, 0, { parent: v1, origin: 'varied' }));
    jobs.add(v3.jobId, pressed('reroll', v2, v2Images));
    expect(await parentShown('undo', await get(v3), { versions, jobs })).toEqual(v1Images);
  });

  it('takes an Edit image edit’s message, and an undo’s result stands for the version it shows', async () => {
    const { versions, jobs, v1, get } = await setUp();
    const edited = { jobId: 'form-4', index: 0 };
    await versions.record(version(edited.jobId, 0, { parent: v1 }));
    const source = {
      id: 'M-cmd-1',
      author: { id: 'B', name: 'genbot', isBot: true, isSelf: true },
      text: '',
      attachments: v1Images,
    };
    jobs.add(edited.jobId, { kind: 'message-edit', edit: { target, instruction: 'blue', source, userId: 'U1' } });
    const restored = { jobId: 'undo-5', index: 0 };
    await versions.record(version(restored.jobId, 0, { parent: edited, origin: 'restored' }));
    expect(await parentShown('reroll', await get(restored), { versions, jobs })).toEqual(v1Images);
  });

  it('none when the job that made the version is gone', async () => {
    const { versions, v2, get } = await setUp();
    expect(await parentShown('undo', await get(v2), { versions, jobs: new Jobs() })).toEqual([]);
  });
});
