import { copy } from '@genbot/core/copy';
import { type ChatJob, ChatJobIntake, toNewJob } from '@genbot/core/jobs';
import { PlaceSettings, type SettingLevel, type SettingName, type SettingsPlace } from '@genbot/core/settings';
import type { JsonValue, Store } from '@genbot/core/store';
import { openStore } from '@genbot/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobFinished } from '../support/job-finished.js';
import {
  type Databases,
  imagineJob,
  mentionJob,
  operatorOf,
  type Rig,
  type RigOptions,
  startRig,
  storeBackends,
} from './harness.js';

const channel: SettingsPlace = { platform: 'slack', workspaceId: 'T1', channelId: 'C1' };
const workspace = { platform: 'slack' as const, workspaceId: 'T1' };

function set(rig: Rig, name: SettingName, value: JsonValue | undefined, level: SettingLevel = 'channel') {
  return rig.settings.change({ place: channel, level, name, value, by: 'UADMIN' });
}

function generateRequests(rig: Rig) {
  return rig.emulator.requests.filter((request) => request.path.includes(':generateContent'));
}

function messagesRequests(rig: Rig) {
  return rig.emulator.requests.filter((request) => request.path === '/v1/messages');
}

/** The same /imagine, asked in a DM of the workspace. */
function inDm(job: ChatJob): ChatJob {
  if (job.input.kind !== 'imagine') throw new Error('an /imagine only');
  return {
    ...job,
    channelId: 'D1',
    input: { kind: 'imagine', imagine: { ...job.input.imagine, target: { channelId: 'D1' } } },
  };
}

describe.each(storeBackends())('the settings a job carries, enabled and budgets, on $name', ({ start }) => {
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

  async function started(options: RigOptions = {}): Promise<Rig> {
    rig = await startRig({ databaseUrl: await databases.freshUrl(), ...options });
    return rig;
  }

  it('runs a job with the settings it was accepted under, not those changed while it waited', async () => {
    const current = await started({ process: false });
    await set(current, 'image_model', 'img-b');
    await set(current, 'images', 2);
    await set(current, 'aspect_ratio', '16:9');
    await set(current, 'chat_model', 'chat-b');
    await set(current, 'system_prompt', 'You are a pirate.');
    const draw = imagineJob('a lighthouse');
    const talk = mentionJob('hello there');
    expect(await current.intake.submit(draw)).toMatchObject({ accepted: true });
    expect(await current.intake.submit(talk)).toMatchObject({ accepted: true });
    // Changed while the jobs wait for a worker: they keep what they were accepted under.
    await set(current, 'image_model', 'img');
    await set(current, 'images', 1);
    await set(current, 'chat_model', undefined);
    await set(current, 'system_prompt', 'You are a poet.');
    current.queue.process(current.worker.handle, { concurrency: { image: 1, stream: 1 }, platforms: ['slack'] });
    await jobFinished(current.store, draw.id);
    await jobFinished(current.store, talk.id);

    const [generated] = generateRequests(current);
    expect(generated?.path).toContain('/models/img-b:generateContent');
    expect(generated?.body).toMatchObject({
      generationConfig: { candidateCount: 2, imageConfig: { aspectRatio: '16:9' } },
    });
    expect(current.platform.uploads[0]?.files).toHaveLength(2);
    const [asked] = messagesRequests(current);
    expect(asked?.body).toMatchObject({ model: 'chat-b', system: 'You are a pirate.' });
    // The ratio the place gave is the version's, so a Re-roll asks the same.
    const versions = await current.store.versions.byMessage(
      'slack',
      'C1',
      current.platform.uploads[0]?.messageId ?? '',
    );
    expect(versions[0]?.aspectRatio).toBe('16:9');
  });

  it("draws a generate_image call without a count or a ratio with the place's images and aspect_ratio", async () => {
    const current = await started({ operator: { budgetImagesPerDay: 10 } });
    await set(current, 'images', 3);
    await set(current, 'aspect_ratio', '4:3');
    await set(current, 'image_model', 'img-b');
    const job = mentionJob(`[tool:generate_image ${JSON.stringify({ prompt: 'a fox' })}]`);
    await current.intake.submit(job);
    await jobFinished(current.store, job.id);
    const [drawn] = generateRequests(current);
    expect(drawn?.path).toContain('/models/img-b:generateContent');
    expect(drawn?.body).toMatchObject({ generationConfig: { candidateCount: 3, imageConfig: { aspectRatio: '4:3' } } });
    expect(current.platform.uploads[0]?.files).toHaveLength(3);
    expect((await current.store.usage.totals(workspace)).today.images).toBe(3);
  });

  it("runs a job recorded without settings (before they existed) on the operator's defaults", async () => {
    const current = await started({ process: false });
    await set(current, 'image_model', 'img-b');
    const old = imagineJob('an old request');
    // Written as an older ingress wrote it: no settings beside the input.
    await current.store.jobs.record(toNewJob(old));
    await current.queue.add({ id: old.id, lane: 'image', platform: 'slack', userId: old.userId });
    current.queue.process(current.worker.handle, { concurrency: { image: 1, stream: 1 }, platforms: ['slack'] });
    expect(await jobFinished(current.store, old.id)).toMatchObject({ outcome: 'done' });
    expect(generateRequests(current)[0]?.path).toContain('/models/img:generateContent');
  });

  it('refuses a job in a channel whose genbot is off, privately, recording and sending nothing; a DM is not a channel', async () => {
    const current = await started();
    await set(current, 'enabled', false, 'workspace');
    for (const job of [imagineJob('a cat'), mentionJob('hello')]) {
      expect(await current.intake.submit(job)).toEqual({
        accepted: false,
        answer: copy.disabledHere,
        reason: 'disabled',
      });
      expect(await current.store.jobs.get(job.id)).toBeUndefined();
    }
    expect(current.emulator.requests).toHaveLength(0);
    const dm = inDm(imagineJob('a cat in a DM'));
    expect(await current.intake.submit(dm)).toMatchObject({ accepted: true });
    expect(await jobFinished(current.store, dm.id)).toMatchObject({ outcome: 'done' });
    await set(current, 'enabled', true);
    expect(await current.intake.submit(imagineJob('a cat, on here'))).toMatchObject({ accepted: true });
  });

  it("refuses whole an /imagine that would pass the workspace's image budget, and one when it is spent", async () => {
    const current = await started({ operator: { budgetImagesPerDay: 10 } });
    await set(current, 'budget_images_per_day', 3, 'workspace');
    const first = imagineJob('two foxes', 'U1');
    await set(current, 'images', 2);
    expect(await current.intake.submit(first)).toMatchObject({ accepted: true });
    await jobFinished(current.store, first.id);
    await set(current, 'images', 3);
    const requests = current.emulator.requests.length;
    // Another person of the workspace: the budget is everyone's.
    const tooMany = await current.intake.submit(imagineJob('three owls', 'U2'));
    expect(tooMany).toMatchObject({ accepted: false, reason: 'budget' });
    expect(tooMany.accepted === false && tooMany.answer).toContain(
      "That would pass this workspace's daily budget: 1 image left of 3 images",
    );
    await set(current, 'images', 1);
    const last = imagineJob('one owl', 'U2');
    expect(await current.intake.submit(last)).toMatchObject({ accepted: true });
    await jobFinished(current.store, last.id);
    const spent = await current.intake.submit(imagineJob('one more', 'U3'));
    expect(spent.accepted === false && spent.answer).toContain('This workspace has used its 3 images for today');
    expect(current.emulator.requests).toHaveLength(requests + 1);
    expect((await current.store.usage.totals(workspace)).today.images).toBe(3);
  });

  it('gives back the images held for a job that made none, or that failed on its way to the queue', async () => {
    const current = await started({ operator: { budgetImagesPerDay: 2 } });
    await set(current, 'images', 2);
    const blocked = imagineJob('a cat [fault:safety]');
    expect(await current.intake.submit(blocked)).toMatchObject({ accepted: true });
    expect(await jobFinished(current.store, blocked.id)).toMatchObject({ outcome: 'failed' });
    expect((await current.store.usage.totals(workspace)).today.images).toBe(0);
    const refused = new Error('the platform did not take the acknowledgement');
    await expect(
      current.intake.submit(imagineJob('a dog'), { beforeQueue: () => Promise.reject(refused) }),
    ).rejects.toBe(refused);
    expect((await current.store.usage.totals(workspace)).today.images).toBe(0);
    // All of the budget is there for the next.
    const next = imagineJob('two dogs');
    expect(await current.intake.submit(next)).toMatchObject({ accepted: true });
    await jobFinished(current.store, next.id);
    expect((await current.store.usage.totals(workspace)).today.images).toBe(2);
  });

  it('holds all Discord DMs together to the operator budget; a Slack DM to its workspace', async () => {
    const current = await started({ operator: { budgetImagesPerDay: 1 } });
    const dm = (prompt: string, userId: string): ChatJob => ({
      ...imagineJob(prompt, userId),
      platform: 'discord',
      workspaceId: undefined,
      channelId: `DM-${userId}`,
      input: { kind: 'imagine', imagine: { target: { channelId: `DM-${userId}` }, prompt, userId } },
    });
    // Held at admission: the rig's worker runs Slack jobs alone, and this one need not run.
    expect(await current.intake.submit(dm('a cat', 'U1'))).toMatchObject({ accepted: true });
    const other = await current.intake.submit(dm('a dog', 'U2'));
    expect(other.accepted === false && other.answer).toContain(
      'All DMs with me together have used their 1 image for today',
    );
    // The Slack workspace's budget is its own, its DMs in it.
    const slackDm = inDm(imagineJob('a slack cat', 'U3'));
    expect(await current.intake.submit(slackDm)).toMatchObject({ accepted: true });
    await jobFinished(current.store, slackDm.id);
    const spent = await current.intake.submit(imagineJob('in a channel', 'U4'));
    expect(spent.accepted === false && spent.answer).toContain('This workspace has used its 1 image for today');
  });

  it("refuses a conversation once the workspace's chat tokens today reach its budget", async () => {
    const current = await started({ operator: { budgetChatTokensPerDay: 5 } });
    const first = mentionJob('tell me something', { userId: 'U1' });
    await current.intake.submit(first);
    await jobFinished(current.store, first.id);
    const refused = await current.intake.submit(mentionJob('and more', { userId: 'U2' }));
    expect(refused).toMatchObject({ accepted: false, reason: 'budget' });
    expect(refused.accepted === false && refused.answer).toContain(
      'This workspace has used its 5 chat tokens for today',
    );
    // An image job is not held to the token budget.
    expect(await current.intake.submit(imagineJob('a cat', 'U2'))).toMatchObject({ accepted: true });
  });

  it("shows an admin the workspace's use today and what is left of its budgets beside their own", async () => {
    const current = await started({ operator: { budgetImagesPerDay: 5, budgetChatTokensPerDay: 1000 } });
    const job = imagineJob('a cat', 'U2');
    await current.intake.submit(job);
    await jobFinished(current.store, job.id);
    const scope = { ...workspace, userId: 'U1' };
    const own = await current.usage.answer(scope);
    expect(own).not.toContain('This workspace');
    expect(await current.usage.answer(scope, { admin: true })).toBe(
      [
        '**Today:** 0 images, 0 chat tokens',
        '**This month:** 0 images, 0 chat tokens',
        '**This workspace today:** 1 image, 0 chat tokens',
        '**Left of the daily budget:** 4 images, 1,000 chat tokens (resets at midnight UTC)',
      ].join('\n'),
    );
  });

  it('admits one of two requests racing from two processes for the last image of the budget', async () => {
    const url = await databases.freshUrl();
    rig = await startRig({ databaseUrl: url, process: false, operator: { budgetImagesPerDay: 1 } });
    const current = rig;
    const bothReserving = meetingOf(2);
    // Two ingress processes: each its own connection, its own settings; they reserve only once both ask.
    const intakes: ChatJobIntake[] = [];
    for (let process = 0; process < 2; process++) {
      const store = await openStore(url);
      cleanups.push(() => store.close());
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
      intakes.push(
        new ChatJobIntake({
          store: racing,
          queue: current.queue,
          runtime: current.runtime,
          quota: { imagesPerDay: undefined, chatTokensPerDay: undefined },
          logger: current.logger,
          settings: new PlaceSettings({ store: store.settings, operator: operatorOf({ budgetImagesPerDay: 1 }) }),
        }),
      );
    }
    const jobs = [imagineJob('a cat', 'U1'), imagineJob('a dog', 'U2')];
    const results = await Promise.all(jobs.map((job, index) => intakes[index]!.submit(job)));
    expect(results.filter((result) => result.accepted)).toHaveLength(1);
    const refused = results.find((result) => !result.accepted);
    expect(refused).toMatchObject({ accepted: false, reason: 'budget' });
    expect(refused?.accepted === false && refused.answer).toContain('This workspace has used its 1 image for today');
    expect((await current.store.usage.totals(workspace)).today.images).toBe(1);
    expect(current.emulator.requests).toHaveLength(0);
  });
});

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
