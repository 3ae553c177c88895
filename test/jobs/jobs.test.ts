import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copy } from '@genbot/core/copy';
import { QueueUnavailableError } from '@genbot/core/errors';
import {
  InMemoryUserShares,
  InProcessJobQueue,
  JobGivenUpError,
  JobHandedOverError,
  type JobQueue,
  type QueuedJob,
} from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import {
  ChatJobIntake,
  CHAT_JOB_SCHEMA_VERSION,
  JobWorker,
  MAX_RESUME_AGE_MS,
  queuedJob,
  type SharedPlaces,
  toNewJob,
} from '@genbot/core/jobs';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '@genbot/test-servers';
import { imagineJob, mentionJob, type Rig, startRig } from './harness.js';
import { jobFinished } from '../support/job-finished.js';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The worker's clock a minute past the resume age: every job recorded before it is too old to resume. */
const pastResumeAge = (): Date => new Date(Date.now() + MAX_RESUME_AGE_MS + 60_000);

describe('jobs from intake to the platform', () => {
  it('records, queues and runs an /imagine: images uploaded once, versions, usage and the outcome kept', async () => {
    rig = await startRig();
    const job = imagineJob('a lighthouse at dusk');
    expect(await rig.intake.submit(job)).toMatchObject({ accepted: true, duplicate: false });
    await jobFinished(rig.store, job.id);
    const record = await rig.store.jobs.get(job.id);
    expect(record).toMatchObject({ state: 'finished', outcome: 'done', attempts: 1 });
    expect(record?.steps.map((step) => step.name)).toEqual(['posted', 'uploaded']);
    expect(rig.platform.uploads).toHaveLength(1);
    const upload = rig.platform.uploads[0]!;
    const versions = await rig.store.versions.byMessage('slack', 'C1', upload.messageId);
    expect(versions).toHaveLength(upload.files.length);
    expect(versions[0]).toMatchObject({
      jobId: job.id,
      index: 0,
      fileId: upload.fileIds[0],
      prompt: 'a lighthouse at dusk',
    });
    expect(versions[0]?.sha256).toBe(createHash('sha256').update(upload.files[0]!.bytes).digest('hex'));
    const { today } = await rig.store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' });
    expect(today.images).toBe(upload.files.length);
  });

  it('takes a delivery seen twice as one job', async () => {
    rig = await startRig();
    const job = imagineJob('a red kite');
    await rig.intake.submit(job);
    expect(await rig.intake.submit(job)).toEqual({ accepted: true, duplicate: true });
    await jobFinished(rig.store, job.id);
    expect(await rig.intake.submit(job)).toEqual({ accepted: true, duplicate: true });
    await rig.queue.add({ id: job.id, lane: 'image', platform: 'slack', userId: 'U1' });
    await rig.queue.idle();
    expect(rig.platform.uploads).toHaveLength(1);
    expect((await rig.store.jobs.get(job.id))?.attempts).toBe(1);
  });

  it('resumes a job whose process died after posting its progress message, without posting it again', async () => {
    rig = await startRig({ process: false });
    const job = imagineJob('a quiet harbour');
    await rig.intake.submit(job);
    // What the dead process did: it claimed the job and posted its progress message.
    await rig.store.jobs.claim(job.id);
    const shown = await rig.platform
      .surfaceFor()
      .post({ channelId: 'C1' }, copy.interruptedByRestart('a quiet harbour'));
    await rig.store.jobs.recordStep(job.id, { name: 'posted', index: 0, messageId: shown.messageId });

    // The process that starts next has an empty queue of its own.
    const restarted = new InProcessJobQueue();
    expect(await rig.worker.resume(restarted)).toEqual({ resumed: 1, abandoned: 0, held: 0 });
    restarted.process(rig.worker.handle, { concurrency: { image: 1, stream: 1 }, platforms: ['slack'] });
    await jobFinished(rig.store, job.id);
    expect(rig.platform.messages.size).toBe(2);
    expect(rig.platform.messages.get(shown.messageId)?.text).toContain('a quiet harbour');
    expect(rig.platform.messages.get(shown.messageId)?.text).not.toContain('restarting');
    expect(rig.platform.uploads).toHaveLength(1);
    expect((await rig.store.jobs.get(job.id))?.attempts).toBe(2);
  });

  it('does not upload again when the images were uploaded before the crash', async () => {
    rig = await startRig();
    const job = imagineJob('two moons');
    await rig.intake.submit(job);
    await jobFinished(rig.store, job.id);
    const uploads = rig.platform.uploads.length;
    // As if the process died after the upload and before finishing: the job runs again.
    await rig.store.jobs.record({ ...toNewJob({ ...job, id: `${job.id}-again` }) });
    const steps = (await rig.store.jobs.get(job.id))?.steps ?? [];
    for (const step of steps) await rig.store.jobs.recordStep(`${job.id}-again`, step);
    await rig.queue.add({ id: `${job.id}-again`, lane: 'image', platform: 'slack', userId: 'U1' });
    await jobFinished(rig.store, `${job.id}-again`);
    expect(rig.platform.uploads).toHaveLength(uploads);
  });

  it('ends a job too old to resume with a message saying the bot restarted and how to retry', async () => {
    rig = await startRig({ process: false, now: pastResumeAge });
    const job = imagineJob('an old request');
    await rig.intake.submit(job);
    expect(await rig.worker.resume(new InProcessJobQueue())).toEqual({ resumed: 0, abandoned: 1, held: 0 });
    expect(rig.platform.texts()).toEqual([copy.restartedTooLate('an old request')]);
    expect(await rig.store.jobs.get(job.id)).toMatchObject({ state: 'finished', outcome: 'abandoned' });
    expect(rig.emulator.requests).toHaveLength(0);
  });

  it('tells the user once when two processes starting together both find a job too old to resume', async () => {
    rig = await startRig({ process: false, now: pastResumeAge });
    const job = imagineJob('asked long ago');
    await rig.intake.submit(job);
    const results = await Promise.all([
      rig.worker.resume(new InProcessJobQueue()),
      rig.worker.resume(new InProcessJobQueue()),
    ]);
    expect(results.map((result) => result.abandoned).sort()).toEqual([0, 1]);
    expect(rig.platform.texts()).toEqual([copy.restartedTooLate('asked long ago')]);
  });

  it('leaves to the queue a job it still holds, however old', async () => {
    rig = await startRig({ process: false, now: pastResumeAge });
    const job = imagineJob('still running elsewhere');
    await rig.intake.submit(job);
    expect(await rig.queue.holds({ id: job.id, lane: 'image', platform: 'slack', userId: 'U1' })).toBe(true);
    expect(await rig.worker.resume(rig.queue)).toEqual({ resumed: 0, abandoned: 0, held: 1 });
    expect(rig.platform.texts()).toEqual([]);
    expect(await rig.store.jobs.get(job.id)).toMatchObject({ state: 'queued' });
  });

  it('stops a run handed to another worker without a word, and that worker finishes it from its steps', async () => {
    rig = await startRig({ process: false });
    const job = imagineJob('a lost lock');
    await rig.intake.submit(job);
    const handedOn = new AbortController();
    // The queue lost this worker's hold on the job just as its progress message went out.
    rig.platform.onPost = () => handedOn.abort(new JobHandedOverError(job.id));
    await rig.worker.handle({ job: queuedJob(toNewJob(job)), attempt: 1, signal: handedOn.signal });
    expect(rig.platform.texts()).toEqual([copy.imagining('a lost lock')]);
    expect(rig.platform.uploads).toHaveLength(0);
    expect(await rig.store.jobs.get(job.id)).toMatchObject({ state: 'running' });

    rig.platform.onPost = undefined;
    const signal = new AbortController().signal;
    await rig.worker.handle({ job: queuedJob(toNewJob(job)), attempt: 2, signal });
    expect(await rig.store.jobs.get(job.id)).toMatchObject({ state: 'finished', outcome: 'done' });
    expect(rig.platform.messages.size).toBe(2);
    expect(rig.platform.uploads).toHaveLength(1);
  });

  it('ends a job the queue gave up on as failed, tells the user once and never queues it again', async () => {
    rig = await startRig({ process: false });
    const job = imagineJob('a crashing request');
    await rig.intake.submit(job);
    await rig.store.jobs.claim(job.id);
    const queued = queuedJob(toNewJob(job));
    await Promise.all([rig.worker.giveUp(queued), rig.worker.giveUp(queued)]);
    expect(await rig.store.jobs.get(job.id)).toMatchObject({
      state: 'finished',
      outcome: 'failed',
      outcomeDetail: 'stalled too often',
    });
    expect(rig.platform.texts()).toEqual([copy.interruptedTooOften('a crashing request')]);
    expect(await rig.worker.resume(new InProcessJobQueue())).toEqual({ resumed: 0, abandoned: 0, held: 0 });
    expect(rig.emulator.requests).toHaveLength(0);
  });

  it('ends a job on start when the queue says it gave up on it (the process told of it died first)', async () => {
    rig = await startRig({ process: false });
    const job = imagineJob('given up on meanwhile');
    await rig.intake.submit(job);
    const queue = new (class extends InProcessJobQueue {
      override async add(queued: QueuedJob): Promise<void> {
        throw new JobGivenUpError(queued.id);
      }
    })();
    expect(await rig.worker.resume(queue)).toEqual({ resumed: 0, abandoned: 1, held: 0 });
    expect(await rig.store.jobs.get(job.id)).toMatchObject({ state: 'finished', outcome: 'failed' });
    expect(rig.platform.texts()).toEqual([copy.interruptedTooOften('given up on meanwhile')]);
  });

  it('takes back the place of a job whose trigger another process heard deleted before a worker took it', async () => {
    rig = await startRig({ process: false });
    const job = mentionJob('withdrawn before it ran');
    await rig.intake.submit(job);
    // Its place in line, shown by ingress as its first post (as on a platform without private messages).
    const place = await rig.platform.surfaceFor().post({ channelId: 'C1', threadId: job.threadId }, copy.chatQueued(1));
    await rig.store.jobs.recordStep(job.id, { name: 'posted', index: 0, messageId: place.messageId });
    const logger = createLogger({ level: 'silent' });
    const worker = new JobWorker({
      store: rig.store,
      runtime: rig.runtime,
      surfaces: [{ platform: 'slack', surfaceFor: () => rig!.platform.surfaceFor(), cancelKey: (asked) => asked.id }],
      deps: { images: rig.client, chat: rig.client, config: { imageModel: 'img', chatModel: 'chat' }, logger },
      logger,
      cancellations: { cancelled: async () => true },
    });
    await worker.handle({ job: queuedJob(toNewJob(job)), attempt: 1, signal: new AbortController().signal });
    expect(await rig.store.jobs.get(job.id)).toMatchObject({ state: 'finished', outcome: 'rejected' });
    // This platform cannot delete a message: the place says the request was cancelled.
    expect(rig.platform.texts()).toEqual([copy.cancelled]);
    expect(rig.emulator.requests).toHaveLength(0);
  });

  it('refuses a job of another schema version with a message, and sends nothing to the service', async () => {
    rig = await startRig();
    const job = imagineJob('from the future');
    await rig.store.jobs.record({ ...toNewJob(job), schemaVersion: CHAT_JOB_SCHEMA_VERSION + 1 });
    await rig.queue.add({ id: job.id, lane: 'image', platform: 'slack', userId: 'U1' });
    await jobFinished(rig.store, job.id);
    expect(await rig.store.jobs.get(job.id)).toMatchObject({ outcome: 'failed', outcomeDetail: 'unreadable' });
    expect(rig.platform.texts()).toEqual([copy.unreadableJob]);
    expect(rig.emulator.requests).toHaveLength(0);
  });
});

describe('places in line of jobs waiting for a worker', () => {
  it('shows each its place as its first message, which the worker then turns into its progress and answer', async () => {
    rig = await startRig({ process: false });
    rig.intake.showPlacesOn([rig.platform]);
    const first = imagineJob('a red fox');
    const second = mentionJob('what is a fox?');
    expect(await rig.intake.submit(first)).toMatchObject({ accepted: true, position: 1 });
    expect(await rig.intake.submit(second)).toMatchObject({ accepted: true, position: 1 });
    const third = imagineJob('a blue fox', 'U2');
    expect(await rig.intake.submit(third)).toMatchObject({ accepted: true, position: 2 });
    const current = rig;
    await eventually(() => current.platform.messages.size === 3);
    expect(current.platform.texts()).toEqual([
      copy.imagineQueued('a red fox', 1),
      copy.chatQueued(1),
      copy.imagineQueued('a blue fox', 2),
    ]);
    const placeOf = [...current.platform.messages.keys()];
    current.queue.process(current.worker.handle, { concurrency: { image: 1, stream: 1 }, platforms: ['slack'] });
    for (const job of [first, second, third]) await jobFinished(current.store, job.id);
    // No second message for a job's progress or reply: the place in line became it.
    expect(current.platform.messages.get(placeOf[0]!)?.text).toMatch(/^🎨 Done: /);
    expect(current.platform.messages.get(placeOf[1]!)?.text).toMatch(/^You said/);
    expect(current.platform.messages.get(placeOf[2]!)?.text).toMatch(/^🎨 Done: /);
    expect(current.platform.messages.size).toBe(3 + current.platform.uploads.length);
  });
});

describe('daily quotas and /usage', () => {
  it("answers a person's own mistakes privately at intake: nothing recorded, nothing sent", async () => {
    rig = await startRig();
    const mistakes: [ReturnType<typeof imagineJob>, string][] = [
      [imagineJob('   '), copy.emptyPrompt],
      [imagineJob('x'.repeat(2_001)), copy.promptTooLong(2_001, 2_000)],
      [
        {
          ...imagineJob('a cat'),
          input: {
            kind: 'imagine',
            imagine: { target: { channelId: 'C1' }, prompt: 'a cat', aspectRatio: '7:3', userId: 'U1' },
          },
        },
        copy.badAspectRatio('7:3', ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9']),
      ],
      [mentionJob('  '), copy.bareMention],
    ];
    for (const [job, answer] of mistakes) {
      expect(await rig.intake.submit(job)).toEqual({ accepted: false, answer, reason: 'invalid' });
      expect(await rig.store.jobs.get(job.id)).toBeUndefined();
    }
    expect(rig.emulator.requests).toEqual([]);
    expect(rig.platform.messages.size).toBe(0);
    expect(copy.badAspectRatio('7:3', ['1:1', '16:9'])).toBe(
      "“7:3” isn't a supported aspect ratio. Use one of: 1:1, 16:9.",
    );
    expect(copy.bareMention).toBe(
      '👋 Ask me something after the mention, or mention me in reply to an image with what to change in it. For a new image, use `/imagine`.',
    );
  });

  it('refuses an /imagine over the image quota privately, naming it, and sends nothing', async () => {
    rig = await startRig({ quota: { imagesPerDay: 1 } });
    const first = imagineJob('one cat');
    await rig.intake.submit(first);
    await jobFinished(rig.store, first.id);
    const requests = rig.emulator.requests.length;
    const refused = await rig.intake.submit(imagineJob('another cat'));
    expect(refused.accepted).toBe(false);
    expect(refused.accepted === false && refused.answer).toMatch(
      /^🛑 You've used your 1 image for today\. The quota resets at midnight UTC, in about (\d+ hours|\d+ minutes|\d+ seconds|a minute)\.$/,
    );
    expect(rig.emulator.requests).toHaveLength(requests);
    expect(await rig.usage.answer({ platform: 'slack', workspaceId: 'T1', userId: 'U1' })).toMatch(
      /^\*\*Today:\*\* \d+ images?, 0 chat tokens\n\*\*This month:\*\* \d+ images?, 0 chat tokens\n\*\*Left today:\*\* 0 images \(resets at midnight UTC\)$/,
    );
    // A repeat delivery of the job that spent it is a repeat, not a refusal.
    expect(await rig.intake.submit(first)).toEqual({ accepted: true, duplicate: true });
    // Another user has their own quota.
    expect(await rig.intake.submit(imagineJob('a dog', 'U2'))).toMatchObject({ accepted: true });
  });

  it("says what is left in an /imagine's progress message once little is", async () => {
    rig = await startRig({ quota: { imagesPerDay: 5 } });
    for (const prompt of ['one', 'two', 'three', 'four']) {
      const job = imagineJob(`picture ${prompt}`);
      await rig.intake.submit(job);
      await jobFinished(rig.store, job.id);
    }
    expect(rig.platform.texts().some((text) => text.includes('Left today'))).toBe(false);
    const last = imagineJob('picture five');
    await rig.intake.submit(last);
    await jobFinished(rig.store, last.id);
    const progress = [...rig.platform.messages.values()].filter((message) => message.text.includes('picture five'));
    expect(progress[0]?.text).toMatch(/\n\n_Left today: 1 image\._$/);
    expect(copy.quotaLeft([{ quota: 'images', left: 1 }])).toBe('_Left today: 1 image._');
  });

  it('counts chat tokens of a conversation and refuses the next one past the token quota', async () => {
    rig = await startRig({ quota: { chatTokensPerDay: 5 } });
    const job = mentionJob('tell me something');
    await rig.intake.submit(job);
    await jobFinished(rig.store, job.id);
    const { today } = await rig.store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' });
    expect(today.inputTokens + today.outputTokens).toBeGreaterThan(5);
    const refused = await rig.intake.submit(mentionJob('and more'));
    expect(refused.accepted === false && refused.answer).toContain("You've used your 5 chat tokens for today");
    expect(await rig.usage.answer({ platform: 'slack', workspaceId: 'T1', userId: 'U2' })).toBe(
      '**Today:** 0 images, 0 chat tokens\n**This month:** 0 images, 0 chat tokens\n**Left today:** 5 chat tokens (resets at midnight UTC)',
    );
  });
});

describe('image versions', () => {
  it('a mention in the thread of an image edits the latest version and records it as the parent', async () => {
    rig = await startRig();
    const made = imagineJob('a castle');
    made.input = {
      kind: 'imagine',
      imagine: { target: { channelId: 'C1', threadId: '1700000000.000001' }, prompt: 'a castle', userId: 'U1' },
    };
    made.threadId = '1700000000.000001';
    await rig.intake.submit(made);
    await jobFinished(rig.store, made.id);
    const edit = mentionJob('make it snowy', { threadId: '1700000000.000001' });
    await rig.intake.submit(edit);
    await jobFinished(rig.store, edit.id);
    expect((await rig.store.jobs.get(edit.id))?.outcome).toBe('done');
    const latest = await rig.store.versions.latestInThread('slack', 'C1', '1700000000.000001');
    expect(latest).toMatchObject({
      jobId: edit.id,
      index: 0,
      parent: { jobId: made.id, index: 0 },
      prompt: 'make it snowy',
    });
  });
});

describe('intake when workers elsewhere run the jobs (REDIS_URL)', () => {
  const logger = createLogger({ level: 'silent' });
  const quota = { imagesPerDay: undefined, chatTokensPerDay: undefined };

  it("counts a user's places across ingress processes, and the worker's release frees one", async () => {
    rig = await startRig({ process: false });
    const places: SharedPlaces = { shares: new InMemoryUserShares(), perUser: { image: 2, stream: 2 }, ttlMs: 60_000 };
    const [one, two] = [1, 2].map(
      () => new ChatJobIntake({ store: rig!.store, queue: rig!.queue, runtime: rig!.runtime, quota, logger, places }),
    );
    const first = imagineJob('a', 'U7');
    expect(await one!.submit(first)).toMatchObject({ accepted: true, duplicate: false });
    expect(await two!.submit(imagineJob('b', 'U7'))).toMatchObject({ accepted: true, duplicate: false });
    const third = imagineJob('c', 'U7');
    expect(await one!.submit(third)).toEqual({
      accepted: false,
      answer: copy.busy('user_limit', 20),
      reason: 'share',
    });
    expect(await rig.store.jobs.get(third.id)).toBeUndefined();
    expect(await two!.submit(first)).toEqual({ accepted: true, duplicate: true });
    expect(await one!.submit(imagineJob('d', 'U8'))).toMatchObject({ accepted: true });
    await places.shares.release('image', 'U7', first.id);
    expect(await two!.submit(third)).toMatchObject({ accepted: true, duplicate: false });
  });

  it('takes a repeat as a repeat even when the user has no place left, and a repeat of a finished job holds none', async () => {
    rig = await startRig({ process: false });
    const places: SharedPlaces = { shares: new InMemoryUserShares(), perUser: { image: 1, stream: 1 }, ttlMs: 60_000 };
    const intake = new ChatJobIntake({
      store: rig.store,
      queue: rig.queue,
      runtime: rig.runtime,
      quota,
      logger,
      places,
    });
    const first = imagineJob('a', 'U9');
    expect(await intake.submit(first)).toMatchObject({ accepted: true, duplicate: false });
    // As the worker ends it: the job finished, its place given back.
    await rig.store.jobs.finish(first.id, 'done');
    await places.shares.release('image', 'U9', first.id);
    expect(await intake.submit(first)).toEqual({ accepted: true, duplicate: true });
    expect(await places.shares.held('image', 'U9')).toBe(0);
    const second = imagineJob('b', 'U9');
    expect(await intake.submit(second)).toMatchObject({ accepted: true, duplicate: false });
    expect(await intake.submit(first)).toEqual({ accepted: true, duplicate: true });
    expect(await intake.submit(second)).toEqual({ accepted: true, duplicate: true });
    expect(await places.shares.held('image', 'U9')).toBe(1);
  });

  it('admits a new job without reading the store first: the insert finds a repeat', async () => {
    rig = await startRig({ process: false });
    const places: SharedPlaces = { shares: new InMemoryUserShares(), perUser: { image: 2, stream: 2 }, ttlMs: 60_000 };
    const reads: string[] = [];
    const jobs = rig.store.jobs;
    const get = (id: string) => {
      reads.push(id);
      return jobs.get(id);
    };
    const store = { ...rig.store, jobs: { ...jobs, get } };
    const intake = new ChatJobIntake({ store, queue: rig.queue, runtime: rig.runtime, quota, logger, places });
    expect(await intake.submit(imagineJob('a', 'U10'))).toMatchObject({ accepted: true, duplicate: false });
    expect(reads).toEqual([]);
  });

  it("runs ingress's step before the queue sees the job, and a failed step leaves nothing to run nor a place held", async () => {
    rig = await startRig({ process: false });
    const places: SharedPlaces = { shares: new InMemoryUserShares(), perUser: { image: 1, stream: 1 }, ttlMs: 60_000 };
    const seen: string[] = [];
    const queue: JobQueue = {
      add: async (job) => {
        seen.push(`queued ${job.id}`);
      },
      process: () => undefined,
      holds: async () => false,
      position: async () => undefined,
      close: async () => undefined,
    };
    const intake = new ChatJobIntake({ store: rig.store, queue, runtime: rig.runtime, quota, logger, places });
    const job = imagineJob('a wren', 'U11');
    const beforeQueue = async (): Promise<void> => {
      seen.push(`recorded: ${(await rig?.store.jobs.get(job.id))?.state}`);
    };
    expect(await intake.submit(job, { beforeQueue })).toMatchObject({ accepted: true, duplicate: false });
    expect(seen).toEqual(['recorded: queued', `queued ${job.id}`]);
    // A repeat is not acknowledged again.
    expect(await intake.submit(job, { beforeQueue })).toEqual({ accepted: true, duplicate: true });
    expect(seen).toHaveLength(2);

    const late = imagineJob('a late wren', 'U12');
    const refused = new Error('the interaction expired');
    await expect(intake.submit(late, { beforeQueue: () => Promise.reject(refused) })).rejects.toBe(refused);
    expect(seen).toHaveLength(2);
    expect(await rig.store.jobs.get(late.id)).toMatchObject({ state: 'finished', outcome: 'rejected' });
    expect(await places.shares.held('image', 'U12')).toBe(0);
  });

  it('refuses in words when the queue is away, and leaves no recorded job for a worker to run later', async () => {
    rig = await startRig({ process: false });
    const away: JobQueue = {
      add: async (job) => {
        throw new QueueUnavailableError(`Redis (REDIS_URL) is not reachable: job ${job.id} not queued`);
      },
      process: () => undefined,
      holds: async () => false,
      position: async () => undefined,
      close: async () => undefined,
    };
    const places: SharedPlaces = { shares: new InMemoryUserShares(), perUser: { image: 1, stream: 1 }, ttlMs: 60_000 };
    const intake = new ChatJobIntake({ store: rig.store, queue: away, runtime: rig.runtime, quota, logger, places });
    const job = imagineJob('a heron', 'U9');
    expect(await intake.submit(job)).toEqual({
      accepted: false,
      answer: copy.queueUnavailable,
      reason: 'queue_unavailable',
    });
    expect(await rig.store.jobs.get(job.id)).toMatchObject({ state: 'finished', outcome: 'rejected' });
    expect(await rig.store.jobs.unfinished(['slack'])).toEqual([]);
    expect(await places.shares.held('image', 'U9')).toBe(0);
  });
});

/** Another process holding SQLite's write lock until released: past the busy timeout, the database cannot be written. */
async function holdWriteLock(file: string): Promise<{ release(): Promise<void> }> {
  // better-sqlite3 is the store's dependency: resolve it from there.
  const cwd = path.dirname(fileURLToPath(import.meta.resolve('@genbot/store')));
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
       db.exec('begin immediate'); console.log('locked');
       process.stdin.once('data', () => { db.exec('commit'); db.close(); process.exit(0); });`,
    ],
    { cwd, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
  return {
    release: async () => {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.stdin.end('release\n');
      await exited;
    },
  };
}

describe('a database outage mid-job', () => {
  it('SQLite locked by another process past the busy timeout: the job waits, then finishes by itself, once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-jobs-outage-'));
    const file = path.join(dir, 'genbot.db');
    const lines: string[] = [];
    rig = await startRig({ databaseUrl: `sqlite:${file}`, logLines: lines });
    const current = rig;
    try {
      const job = imagineJob('a lighthouse in fog [fault:slow=1500]');
      expect(await current.intake.submit(job)).toMatchObject({ accepted: true });
      await eventually(async () => (await current.store.jobs.get(job.id))?.steps.length === 1);
      const lock = await holdWriteLock(file);
      // The upload reaches the platform; recording it fails once the busy timeout runs out.
      await eventually(() => lines.some((line) => line.includes('the database cannot be used: the job waits for it')));
      expect((await current.store.jobs.get(job.id))?.state).toBe('running');
      await lock.release();
      await jobFinished(current.store, job.id);
      const record = await current.store.jobs.get(job.id);
      expect(record).toMatchObject({ outcome: 'done', attempts: 1 });
      expect(record?.steps.map((step) => step.name)).toEqual(['posted', 'uploaded']);
      expect(current.platform.uploads).toHaveLength(1);
      expect(current.platform.texts().filter((text) => text.startsWith('🎨 Done'))).toHaveLength(1);
      const upload = current.platform.uploads[0]!;
      expect(await current.store.versions.byMessage('slack', 'C1', upload.messageId)).toHaveLength(upload.files.length);
      const { today } = await current.store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' });
      expect(today.images).toBe(upload.files.length);
      expect(lines.some((line) => line.includes('the database answers again: the job goes on'))).toBe(true);
    } finally {
      await rig.close();
      rig = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
