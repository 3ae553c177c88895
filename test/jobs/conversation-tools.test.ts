import { copy } from '@genbot/core/copy';
import { type ChatJob, type JobWorker, queuedJob, secondsToUtcMidnight, toNewJob } from '@genbot/core/jobs';
import { InProcessJobQueue, JobHandedOverError } from '@genbot/core/scheduling';
import type { JobRecord, Store } from '@genbot/core/store';
import type { ChatModel, ImageModel } from '@genbot/core/surface';
import { openStore } from '@genbot/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobFinished } from '../support/job-finished.js';
import { type Databases, imagineJob, mentionJob, type Rig, startRig, startWorker, storeBackends } from './harness.js';

const person = { platform: 'slack' as const, workspaceId: 'T1', userId: 'U1' };

function generateRequests(rig: Rig): number {
  return rig.emulator.requests.filter((request) => request.path.includes(':generateContent')).length;
}

/** The conversation's reply: the job's first post, as the platform shows it now. */
async function replyOf(rig: Rig, job: ChatJob): Promise<string> {
  const posted = (await rig.store.jobs.get(job.id))?.steps.find((step) => step.name === 'posted' && step.index === 0);
  return rig.platform.messages.get(posted?.messageId ?? '')?.text ?? '';
}

const stepNames = (record: JobRecord | undefined): string[] => record?.steps.map((step) => step.name) ?? [];

async function imagesToday(store: Pick<Store, 'usage'>): Promise<number> {
  return (await store.usage.totals(person)).today.images;
}

/** Resolves for every caller once `parties` have called: the callers go on together. */
function meetingOf(parties: number): () => Promise<void> {
  let arrived = 0;
  let open: () => void = () => undefined;
  const together = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    arrived += 1;
    if (arrived === parties) open();
    return together;
  };
}

describe.each(storeBackends())('a conversation’s tool calls as jobs, on $name', ({ start }) => {
  let databases: Databases;
  beforeAll(async () => {
    databases = await start();
  });
  afterAll(async () => {
    await databases?.close();
  });

  let rig: Rig | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await rig?.close();
    rig = undefined;
  });

  /** Another worker process's store: its own connection to the same database. */
  async function storeOf(url: string): Promise<Store> {
    const store = await openStore(url);
    cleanups.push(() => store.close());
    return store;
  }

  it('resumes a conversation whose worker died after its drawing was posted: no second drawing, no second result, the reply completed', async () => {
    const url = await databases.freshUrl();
    rig = await startRig({ databaseUrl: url, process: false });
    const job = mentionJob('draw a cat');
    expect(await rig.intake.submit(job)).toMatchObject({ accepted: true });
    // The worker is gone the moment its drawing is on the platform: nothing after it (the closing words) happens.
    const gone = new AbortController();
    rig.platform.onUpload = () => gone.abort(new JobHandedOverError(job.id));
    await rig.worker.handle({ job: queuedJob(toNewJob(job)), attempt: 1, signal: gone.signal });
    rig.platform.onUpload = undefined;
    const stopped = await rig.store.jobs.get(job.id);
    expect(stopped?.state).toBe('running');
    expect(stepNames(stopped)).toEqual(['posted', 'reserved', 'uploaded']);
    expect(generateRequests(rig)).toBe(1);
    expect(rig.platform.uploads).toHaveLength(1);
    expect(await replyOf(rig, job)).not.toContain('Done:');
    const shown = rig.platform.messages.size;

    // The process that starts next: its own store connection, runtime and (empty) queue.
    const { worker, runtime } = startWorker({
      store: await storeOf(url),
      platform: rig.platform,
      client: rig.client,
      logger: rig.logger,
    });
    const queue = new InProcessJobQueue();
    cleanups.push(
      () => runtime.drain({ deadlineMs: 1000 }),
      () => queue.close(),
    );
    expect(await worker.resume(queue)).toEqual({ resumed: 1, abandoned: 0, held: 0 });
    queue.process(worker.handle, { concurrency: { image: 1, stream: 1 }, platforms: worker.platforms });
    const finished = await jobFinished(rig.store, job.id);

    expect(finished).toMatchObject({ outcome: 'done', attempts: 2 });
    expect(generateRequests(rig)).toBe(1);
    expect(rig.platform.uploads).toHaveLength(1);
    expect(rig.platform.messages.size).toBe(shown);
    expect(stepNames(finished)).toEqual(['posted', 'reserved', 'uploaded']);
    const reply = await replyOf(rig, job);
    expect(reply).toContain(`Done: ${copy.toolResult.postedBefore}`);
    expect(reply).not.toContain(copy.drawingActivity('draw a cat'));
    // The image drawn before the crash is still the person's: the resumed run's usage does not forget it.
    expect(await imagesToday(rig.store)).toBe(1);
  });

  const limits = [
    {
      limit: "the person's quota",
      rig: { quota: { imagesPerDay: 1 } },
      users: ['U1', 'U1'],
      refusal: (at: Date) => copy.quotaReached('images', 1, secondsToUtcMidnight(at)),
    },
    {
      limit: "the workspace's budget",
      rig: { operator: { budgetImagesPerDay: 1 } },
      users: ['U1', 'U2'],
      refusal: (at: Date) => copy.budgetReached('images', 1, 0, 'slack', secondsToUtcMidnight(at)),
    },
  ];

  it.each(limits)(
    'two workers whose tool calls race for the last image of $limit: one draws, after reserving; the other is told and draws nothing',
    async (limit) => {
      const url = await databases.freshUrl();
      rig = await startRig({ databaseUrl: url, process: false, ...limit.rig });
      const current = rig;
      const jobs = [
        mentionJob('draw a cat', { userId: limit.users[0] }),
        mentionJob('draw a dog', { userId: limit.users[1] }),
      ];
      for (const job of jobs) expect(await current.intake.submit(job)).toMatchObject({ accepted: true });
      // The workers' clock, which says when the quota resets (the store keeps its own).
      const at = new Date('2030-01-01T21:00:00Z');
      const bothReserving = meetingOf(jobs.length);
      // What each worker's job had recorded when its drawing was asked for.
      const recordedAtDraw: string[][] = [];
      const workers: JobWorker[] = [];
      // Opened one after the other: each store migrates its database as it opens.
      for (const job of jobs) {
        const store = await storeOf(url);
        // Both reservations are asked for only once both calls want one: they race in the store.
        const racing: Store = {
          ...store,
          usage: {
            ...store.usage,
            reserveImages: async (...args) => {
              await bothReserving();
              return store.usage.reserveImages(...args);
            },
          },
        };
        const images: ImageModel = {
          generateImages: async (...args) => {
            recordedAtDraw.push(stepNames(await store.jobs.get(job.id)));
            return current.client.generateImages(...args);
          },
        };
        const started = startWorker({
          store: racing,
          platform: current.platform,
          client: current.client,
          images,
          logger: current.logger,
          quota: limit.rig.quota,
          now: () => at,
        });
        cleanups.push(() => started.runtime.drain({ deadlineMs: 1000 }));
        workers.push(started.worker);
      }
      const signal = new AbortController().signal;
      await Promise.all(
        jobs.map((job, index) => workers[index]?.handle({ job: queuedJob(toNewJob(job)), attempt: 1, signal })),
      );

      const records = await Promise.all(jobs.map((job) => current.store.jobs.get(job.id)));
      expect(records.map((record) => record?.outcome)).toEqual(['done', 'done']);
      const winner = records.findIndex((record) => stepNames(record).includes('reserved'));
      const [won, lost] = winner === 0 ? [jobs[0]!, jobs[1]!] : [jobs[1]!, jobs[0]!];
      const wonRecord = records[jobs.indexOf(won)];
      expect(generateRequests(current)).toBe(1);
      expect(recordedAtDraw).toEqual([['posted', 'reserved']]);
      expect(wonRecord?.steps.find((step) => step.name === 'reserved')).toMatchObject({ index: 0, files: 1 });
      expect(stepNames(wonRecord)).toEqual(['posted', 'reserved', 'uploaded']);
      expect(stepNames(records[jobs.indexOf(lost)])).toEqual(['posted']);
      expect(current.platform.uploads.map((upload) => upload.target.threadId)).toEqual([won.threadId]);
      expect(await replyOf(current, won)).toContain('Done: Posted 1 image');
      const refusal = limit.refusal(at);
      const lostReply = await replyOf(current, lost);
      expect(lostReply).toContain(refusal);
      expect(lostReply).toContain("That didn't work:");
      const { today } = await current.store.usage.totals({ platform: 'slack', workspaceId: 'T1' });
      expect(today.images).toBe(1);
    },
  );

  it('gives back the reservation of a tool call whose drawing failed, before the conversation goes on', async () => {
    const url = await databases.freshUrl();
    rig = await startRig({ databaseUrl: url, process: false, quota: { imagesPerDay: 3 } });
    const current = rig;
    // An image the person made earlier today.
    const earlier = imagineJob('an earlier picture');
    await current.store.jobs.record(toNewJob(earlier));
    await current.store.usage.record({
      jobId: earlier.id,
      ...person,
      images: 1,
      inputTokens: 0,
      outputTokens: 0,
      tokensEstimated: false,
    });
    const usedAtDraw: number[] = [];
    const usedAtChat: number[] = [];
    const images: ImageModel = {
      generateImages: async (...args) => {
        usedAtDraw.push(await imagesToday(current.store));
        return current.client.generateImages(...args);
      },
    };
    const chat: ChatModel = {
      streamMessage: (request, options) => {
        // Read as the request is made; the stream (and so the job's end) waits for the answer.
        const used = imagesToday(current.store);
        const stream = current.client.streamMessage(request, options);
        return {
          textDeltas: async function* () {
            usedAtChat.push(await used);
            yield* stream.textDeltas();
          },
          finalMessage: () => stream.finalMessage(),
        };
      },
    };
    const { worker, runtime } = startWorker({
      store: current.store,
      platform: current.platform,
      client: current.client,
      images,
      chat,
      logger: current.logger,
      quota: { imagesPerDay: 3 },
    });
    cleanups.push(() => runtime.drain({ deadlineMs: 1000 }));
    const prompt = 'a cat [fault:no-image]';
    const job = mentionJob(`[tool:generate_image ${JSON.stringify({ prompt })}]`);
    expect(await current.intake.submit(job)).toMatchObject({ accepted: true });
    await worker.handle({ job: queuedJob(toNewJob(job)), attempt: 1, signal: new AbortController().signal });

    expect(await current.store.jobs.get(job.id)).toMatchObject({ outcome: 'done' });
    expect(generateRequests(current)).toBeGreaterThan(0);
    expect(current.platform.uploads).toEqual([]);
    // Reserved before the drawing was asked for, given back before the model was told it failed.
    expect(usedAtDraw.every((used) => used === 2)).toBe(true);
    expect(usedAtChat).toEqual([1, 1]);
    expect(await imagesToday(current.store)).toBe(1);
    const reply = await replyOf(current, job);
    expect(reply).toContain(`⚠️ Couldn't generate “${prompt}”`);
    expect(reply).toContain("That didn't work:");
  });

  it('records a drawing as a generated version with the buttons of /imagine, and an edit of it in the thread as its child, with Undo', async () => {
    rig = await startRig({ databaseUrl: await databases.freshUrl() });
    const draw = mentionJob('draw a cat');
    await rig.intake.submit(draw);
    await jobFinished(rig.store, draw.id);
    const drawn = rig.platform.uploads[0]!;
    expect(drawn.target).toEqual({ channelId: 'C1', threadId: draw.threadId });
    expect(drawn.buttons.map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit']);
    expect(await rig.store.versions.byMessage('slack', 'C1', drawn.messageId)).toMatchObject([
      {
        jobId: draw.id,
        index: 0,
        origin: 'generated',
        number: 1,
        parent: undefined,
        prompt: 'draw a cat',
        fileId: drawn.fileIds[0],
      },
    ]);
    expect(await replyOf(rig, draw)).toContain('Done: Posted 1 image (v1)');

    const edit = mentionJob('make it snowy', { threadId: draw.threadId });
    await rig.intake.submit(edit);
    await jobFinished(rig.store, edit.id);
    const edited = rig.platform.uploads[1]!;
    expect(edited.target).toEqual({ channelId: 'C1', threadId: draw.threadId });
    expect(edited.comment).toMatch(/^🖌️ v2 · from v1 · “.*make it snowy”$/);
    expect(edited.buttons.map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);
    expect(await rig.store.versions.byMessage('slack', 'C1', edited.messageId)).toMatchObject([
      {
        jobId: edit.id,
        index: 0,
        origin: 'edited',
        number: 2,
        parent: { jobId: draw.id, index: 0 },
        prompt: expect.stringContaining('make it snowy'),
        fileId: edited.fileIds[0],
      },
    ]);
    // The edit was made from the bot's own result, read back from the platform.
    const editRequest = rig.emulator.requests.filter((request) => request.path.includes(':generateContent'))[1];
    expect(JSON.stringify(editRequest?.body)).toContain(Buffer.from(drawn.files[0]!.bytes).toString('base64'));
    expect(await rig.store.jobs.get(edit.id)).toMatchObject({ outcome: 'done' });
  });
});
