import { describe, expect, it } from 'vitest';
import { MemoryVersions } from '../../testing/memory-versions.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { copy } from '../copy/copy.js';
import type { VersionLineage } from '../chat/version-lineage.js';
import type { DailyImageLimit, JobRecord, JobStep, NewJobStep, ReservationHolder, UsageScope } from '../store/index.js';
import type { ChatJob } from './chat-job.js';
import { secondsToUtcMidnight } from './daily-quota.js';
import { recordedSurface } from './recorded-surface.js';
import { RESERVED_STEP, type ToolJobDeps, toolJobOf } from './tool-job-steps.js';

const job: ChatJob = {
  id: 'job-1',
  platform: 'slack',
  workspaceId: 'T1',
  channelId: 'C1',
  threadId: '1700.1',
  userId: 'U1',
  input: {
    kind: 'mention',
    mention: {
      target: { channelId: 'C9', threadId: '1700.1' },
      trigger: {
        id: '1700.1',
        author: { id: 'U1', name: 'alice', isBot: false, isSelf: false },
        text: 'draw',
        attachments: [],
      },
      userId: 'U1',
    },
  },
};

const record: JobRecord = {
  id: 'job-1',
  platform: 'slack',
  workspaceId: 'T1',
  channelId: 'C1',
  threadId: '1700.1',
  userId: 'U1',
  kind: 'mention',
  schemaVersion: 1,
  input: null,
  state: 'running',
  attempts: 1,
  steps: [],
  createdAt: new Date(),
  updatedAt: new Date(),
};

/** A ledger that grants while the limits it is given hold, as the store's does for one user and their workspace. */
class Ledger {
  used = 0;
  /** What the workspace's other users made today. */
  othersUsed = 0;
  readonly reservations: { holder: ReservationHolder; images: number; limits: readonly DailyImageLimit[] }[] = [];
  readonly released: { jobId: string; images: number }[] = [];

  #usedIn(scope: UsageScope): number {
    return scope.userId === undefined ? this.used + this.othersUsed : this.used;
  }

  async reserveImages(holder: ReservationHolder, images: number, limits: readonly DailyImageLimit[]) {
    this.reservations.push({ holder, images, limits });
    if (limits.some((limit) => this.#usedIn(limit.scope) + images > limit.images)) return false;
    this.used += images;
    return true;
  }

  async totals(scope: UsageScope) {
    const today = { images: this.#usedIn(scope), inputTokens: 0, outputTokens: 0, jobs: 0 };
    return { today, month: today };
  }

  async releaseImages(jobId: string, images: number) {
    this.released.push({ jobId, images });
    this.used = Math.max(0, this.used - images);
  }
}

function rig(
  options: {
    imagesPerDay?: number;
    steps?: readonly JobStep[];
    now?: Date;
    budget?: number;
    platform?: 'discord';
  } = {},
) {
  const usage = new Ledger();
  const versions = new MemoryVersions();
  const steps: { id: string; step: NewJobStep }[] = [];
  const lineages: VersionLineage[] = [];
  const logged: string[] = [];
  const madeBefore: number[] = [];
  const deps: ToolJobDeps = {
    store: {
      usage,
      versions,
      jobs: {
        recordStep: async (id, step) => {
          steps.push({ id, step });
          return true;
        },
      },
    },
    stored: (_what, call) => call(),
    quota:
      options.imagesPerDay === undefined
        ? undefined
        : { imagesPerDay: options.imagesPerDay, chatTokensPerDay: undefined },
    logger: {
      debug: () => undefined,
      info: (_fields, message) => {
        logged.push(message ?? '');
      },
      warn: () => undefined,
      error: () => undefined,
    },
    nextResult: (lineage) => {
      lineages.push(lineage);
    },
    madeBefore: (images) => {
      madeBefore.push(images);
    },
    ...(options.now === undefined ? {} : { now: () => options.now as Date }),
  };
  const recorded = recordedSurface(new RecordingSurface(), { id: job.id, steps: options.steps ?? [] }, deps.store.jobs);
  const settings = { chatModel: 'chat', imageModel: 'img', images: 1, budgetImagesPerDay: options.budget };
  const asked: ChatJob =
    options.platform === 'discord'
      ? { ...job, platform: 'discord', workspaceId: undefined, settings }
      : { ...job, settings };
  return { usage, versions, steps, lineages, logged, madeBefore, toolJob: toolJobOf(asked, record, recorded, deps) };
}

async function shown(versions: MemoryVersions, messageId: string, count: number, channelId = 'C9') {
  for (let index = 0; index < count; index++) {
    await versions.record({
      jobId: `made-${messageId}`,
      index,
      platform: 'slack',
      workspaceId: 'T1',
      channelId,
      threadId: '1700.1',
      messageId,
      fileId: `F${index}`,
      mimeType: 'image/png',
      sizeBytes: 10,
      sha256: '0'.repeat(64),
      prompt: 'a fox',
    });
  }
}

describe('toolJobOf', () => {
  it('finds the version an image is by its message and its position there, in the channel the job answers in', async () => {
    const { versions, toolJob } = rig();
    await shown(versions, 'M1', 3);
    // The same message id in another channel is another message.
    await shown(versions, 'M2', 1, 'C1');
    expect(await toolJob.versionOf({ messageId: 'M1', position: 0 })).toEqual({
      key: { jobId: 'made-M1', index: 0 },
      number: 1,
    });
    expect(await toolJob.versionOf({ messageId: 'M1', position: 2 })).toEqual({
      key: { jobId: 'made-M1', index: 2 },
      number: 1,
    });
    expect(await toolJob.versionOf({ messageId: 'M1', position: 3 })).toBeUndefined();
    expect(await toolJob.versionOf({ messageId: 'M2', position: 0 })).toBeUndefined();
    expect(await toolJob.versionOf({ messageId: 'M-unknown', position: 0 })).toBeUndefined();
  });

  it('without an image quota reserves on the ledger all the same (no limit), and records the reservation as a step', async () => {
    const { usage, steps, toolJob } = rig();
    expect(await toolJob.reserveImages(0, 2)).toBeUndefined();
    expect(usage.reservations).toEqual([
      { holder: { jobId: 'job-1', platform: 'slack', workspaceId: 'T1', userId: 'U1' }, images: 2, limits: [] },
    ]);
    expect(steps).toEqual([{ id: 'job-1', step: { name: RESERVED_STEP, index: 0, files: 2 } }]);
  });

  it("with an image quota reserves within the person's daily limit, each call its own step", async () => {
    const { usage, steps, toolJob } = rig({ imagesPerDay: 3 });
    expect(await toolJob.reserveImages(0, 1)).toBeUndefined();
    expect(await toolJob.reserveImages(1, 2)).toBeUndefined();
    expect(usage.reservations.map((reservation) => reservation.limits)).toEqual([
      [{ scope: { platform: 'slack', workspaceId: 'T1', userId: 'U1' }, images: 3 }],
      [{ scope: { platform: 'slack', workspaceId: 'T1', userId: 'U1' }, images: 3 }],
    ]);
    expect(steps.map(({ step }) => step)).toEqual([
      { name: RESERVED_STEP, index: 0, files: 1 },
      { name: RESERVED_STEP, index: 1, files: 2 },
    ]);
    expect(usage.used).toBe(3);
  });

  it('answers a reservation past the quota with the quota’s words, on the worker’s clock, and records no step', async () => {
    const now = new Date('2030-05-01T20:00:00Z');
    const { usage, steps, logged, toolJob } = rig({ imagesPerDay: 1, now });
    usage.used = 1;
    const refusal = await toolJob.reserveImages(0, 1);
    expect(refusal).toBe(copy.quotaReached('images', 1, secondsToUtcMidnight(now)));
    expect(refusal).toContain('in about 4 hours');
    expect(steps).toEqual([]);
    expect(logged).toEqual(['tool call over an image limit']);
  });

  it("reserves within the workspace's budget beside the person's quota, refused in the budget's words", async () => {
    const now = new Date('2030-05-01T20:00:00Z');
    const { usage, steps, toolJob } = rig({ imagesPerDay: 10, budget: 5, now });
    usage.othersUsed = 4;
    expect(await toolJob.reserveImages(0, 2)).toBe(
      copy.budgetReached('images', 5, 1, 'slack', secondsToUtcMidnight(now)),
    );
    expect(usage.reservations[0]?.limits).toEqual([
      { scope: { platform: 'slack', workspaceId: 'T1', userId: 'U1' }, images: 10 },
      { scope: { platform: 'slack', workspaceId: 'T1' }, images: 5 },
    ]);
    expect(await toolJob.reserveImages(0, 1)).toBeUndefined();
    expect(steps.map(({ step }) => step.files)).toEqual([1]);
  });

  it('holds a Discord DM to the budget of all DMs together: the ledger scope without a server', async () => {
    const { usage, toolJob } = rig({ budget: 3, platform: 'discord' });
    usage.othersUsed = 3;
    expect(await toolJob.reserveImages(0, 1)).toContain('All DMs with me together have used their 3 images');
    expect(usage.reservations[0]?.limits).toEqual([
      { scope: { platform: 'discord', workspaceId: undefined }, images: 3 },
    ]);
  });

  it('gives back what a call did not make, to the job’s own entry', async () => {
    const { usage, toolJob } = rig({ imagesPerDay: 4 });
    await toolJob.reserveImages(0, 3);
    await toolJob.releaseImages(0, 2);
    expect(usage.released).toEqual([{ jobId: 'job-1', images: 2 }]);
    expect(usage.used).toBe(1);
  });

  it('takes the uploads a run before made, one a call, then none, counting their images as made by this run', async () => {
    const made: JobStep = {
      name: 'uploaded',
      index: 0,
      messageId: 'M1',
      fileIds: ['F1', 'F2'],
      files: 2,
      at: new Date(),
    };
    const { madeBefore, usage, toolJob } = rig({ steps: [made] });
    expect(toolJob.postedBefore()).toEqual({ messageId: 'M1', fileIds: ['F1', 'F2'] });
    expect(toolJob.postedBefore()).toBeUndefined();
    expect(madeBefore).toEqual([2]);
    // Made already: nothing is reserved for them again.
    expect(usage.reservations).toEqual([]);
  });

  it("hands each call's lineage to the job, for its next upload", () => {
    const { lineages, toolJob } = rig();
    const lineage: VersionLineage = { origin: 'generated', prompt: 'a fox', reroll: true, undo: false };
    toolJob.nextResult(lineage);
    expect(lineages).toEqual([lineage]);
  });
});
