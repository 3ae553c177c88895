import {
  type DailyImageLimit,
  StoreUnavailableError,
  type UsageEntry,
  type UsageScope,
  versionRef,
} from '@genbot/core/store';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../database-url.js';
import { migrate } from '../migrate.js';
import { MIGRATIONS } from '../migrations/index.js';
import { connect, kyselyStore, type OpenedStore, openStore } from '../open-store.js';
import { openInAnotherProcess, startReservingProcess } from './child-process.js';
import { TestClock } from './clock.js';
import { newJob, newVersion, reservationHolder, threadMessage, usage } from './fixtures.js';

export interface StoreHarness {
  /** DATABASE_URL of an empty database that no other test uses. */
  freshUrl(): Promise<string>;
}

const MINUTE = 60_000;

/** What every dialect must do alike; each dialect's test file runs it against a real database. */
export function describeStoreContract(dialect: string, harness: () => StoreHarness): void {
  describe(`Store contract on ${dialect}`, () => {
    let clock: TestClock;
    let url: string;
    let store: OpenedStore;

    beforeEach(async () => {
      clock = new TestClock('2026-11-05T10:00:00.000Z');
      url = await harness().freshUrl();
      store = await openStore(url, { now: clock.now });
    });

    afterEach(async () => {
      await store.close();
    });

    describe('jobs', () => {
      it('records a queued job and reads every field back', async () => {
        const job = newJob('slack-ev-1', { threadId: '1700000000.000100' });
        const { job: stored, created } = await store.jobs.record(job);
        expect(created).toBe(true);
        expect(stored).toEqual({
          ...job,
          interaction: undefined,
          state: 'queued',
          attempts: 0,
          outcome: undefined,
          outcomeDetail: undefined,
          steps: [],
          createdAt: clock.now(),
          updatedAt: clock.now(),
          startedAt: undefined,
          finishedAt: undefined,
        });
        expect(await store.jobs.get('slack-ev-1')).toEqual(stored);
        expect(await store.jobs.get('slack-ev-unknown')).toBeUndefined();
      });

      it('lets one unfinished job at a time hold an active key, and frees it when the job finishes', async () => {
        const first = await store.jobs.record(newJob('slack-btn-1', { activeKey: 'slack:U1:gb1:r:abc' }));
        expect(first.created).toBe(true);
        const second = await store.jobs.record(newJob('slack-btn-2', { activeKey: 'slack:U1:gb1:r:abc' }));
        expect(second).toMatchObject({ created: false, job: { id: 'slack-btn-1' } });
        expect(await store.jobs.get('slack-btn-2')).toBeUndefined();
        expect((await store.jobs.record(newJob('slack-btn-3', { activeKey: 'slack:U2:gb1:r:abc' }))).created).toBe(
          true,
        );
        expect((await store.jobs.record(newJob('slack-btn-1', { activeKey: 'slack:U1:gb1:r:abc' }))).created).toBe(
          false,
        );
        await store.jobs.finish('slack-btn-1', 'done');
        const later = await store.jobs.record(newJob('slack-btn-4', { activeKey: 'slack:U1:gb1:r:abc' }));
        expect(later).toMatchObject({ created: true, job: { id: 'slack-btn-4' } });
      });

      it('keeps a job without a workspace (a Discord DM) and without a thread', async () => {
        await store.jobs.record(newJob('dc-int-1', { platform: 'discord', workspaceId: undefined }));
        const stored = await store.jobs.get('dc-int-1');
        expect(stored?.workspaceId).toBeUndefined();
        expect(stored?.threadId).toBeUndefined();
      });

      it('records a delivery seen twice as one job, unchanged by the repeat', async () => {
        const first = await store.jobs.record(newJob('slack-ev-2'));
        clock.advance(MINUTE);
        const again = await store.jobs.record(newJob('slack-ev-2', { input: { prompt: 'something else' } }));
        expect(again.created).toBe(false);
        expect(again.job).toEqual(first.job);
      });

      it('creates exactly one job when the same delivery is recorded concurrently', async () => {
        const results = await Promise.all(Array.from({ length: 8 }, () => store.jobs.record(newJob('slack-ev-race'))));
        expect(results.filter((result) => result.created)).toHaveLength(1);
      });

      it('claims a job, counts every attempt and keeps when it first started', async () => {
        await store.jobs.record(newJob('slack-ev-3'));
        const startedAt = clock.now();
        clock.advance(MINUTE);
        const first = await store.jobs.claim('slack-ev-3');
        expect(first).toMatchObject({ state: 'running', attempts: 1, startedAt: clock.now() });
        clock.advance(MINUTE);
        // The worker died: the queue delivers it again.
        const second = await store.jobs.claim('slack-ev-3');
        expect(second).toMatchObject({ state: 'running', attempts: 2, updatedAt: clock.now() });
        expect(second?.startedAt).toEqual(new Date(startedAt.getTime() + MINUTE));
        expect(await store.jobs.claim('slack-ev-unknown')).toBeUndefined();
      });

      it('does not claim a finished job', async () => {
        await store.jobs.record(newJob('slack-ev-4'));
        await store.jobs.claim('slack-ev-4');
        expect(await store.jobs.finish('slack-ev-4', 'done')).toBe(true);
        expect(await store.jobs.claim('slack-ev-4')).toBeUndefined();
        expect((await store.jobs.get('slack-ev-4'))?.attempts).toBe(1);
      });

      it('records steps in order, each with its time', async () => {
        await store.jobs.record(newJob('slack-ev-5'));
        await store.jobs.claim('slack-ev-5');
        expect(await store.jobs.recordStep('slack-ev-5', { name: 'progress-posted', messageId: '1700.1' })).toBe(true);
        clock.advance(1000);
        await store.jobs.recordStep('slack-ev-5', { name: 'upload-reserved', fileIds: ['F1', 'F2'], index: 0 });
        clock.advance(1000);
        await store.jobs.recordStep('slack-ev-5', {
          name: 'files-uploaded',
          fileIds: ['F1', 'F2'],
          messageId: '1700.2',
        });
        const steps = (await store.jobs.get('slack-ev-5'))?.steps;
        expect(steps).toEqual([
          { name: 'progress-posted', messageId: '1700.1', at: new Date('2026-11-05T10:00:00.000Z') },
          { name: 'upload-reserved', fileIds: ['F1', 'F2'], index: 0, at: new Date('2026-11-05T10:00:01.000Z') },
          {
            name: 'files-uploaded',
            fileIds: ['F1', 'F2'],
            messageId: '1700.2',
            at: new Date('2026-11-05T10:00:02.000Z'),
          },
        ]);
      });

      it('refuses a step for an unknown or finished job', async () => {
        expect(await store.jobs.recordStep('slack-ev-unknown', { name: 'progress-posted' })).toBe(false);
        await store.jobs.record(newJob('slack-ev-6'));
        await store.jobs.finish('slack-ev-6', 'failed', 'service_unavailable');
        expect(await store.jobs.recordStep('slack-ev-6', { name: 'progress-posted' })).toBe(false);
        expect((await store.jobs.get('slack-ev-6'))?.steps).toEqual([]);
      });

      it('records a step only while no worker has claimed the job, when asked', async () => {
        await store.jobs.record(newJob('slack-ev-q'));
        expect(await store.jobs.recordStep('slack-ev-q', { name: 'posted', index: 0 }, { onlyQueued: true })).toBe(
          true,
        );
        await store.jobs.claim('slack-ev-q');
        expect(await store.jobs.recordStep('slack-ev-q', { name: 'posted', index: 1 }, { onlyQueued: true })).toBe(
          false,
        );
        expect((await store.jobs.get('slack-ev-q'))?.steps.map((step) => step.index)).toEqual([0]);
      });

      it('finishes a job only while no worker has claimed it, when asked', async () => {
        await store.jobs.record(newJob('slack-ev-w1'));
        expect(await store.jobs.finish('slack-ev-w1', 'rejected', 'cancelled', { onlyQueued: true })).toBe(true);
        expect(await store.jobs.get('slack-ev-w1')).toMatchObject({ state: 'finished', outcome: 'rejected' });
        await store.jobs.record(newJob('slack-ev-w2'));
        await store.jobs.claim('slack-ev-w2');
        expect(await store.jobs.finish('slack-ev-w2', 'rejected', 'cancelled', { onlyQueued: true })).toBe(false);
        expect(await store.jobs.get('slack-ev-w2')).toMatchObject({ state: 'running' });
      });

      it('finishes a job once, with its outcome and detail', async () => {
        await store.jobs.record(newJob('slack-ev-7'));
        await store.jobs.claim('slack-ev-7');
        clock.advance(MINUTE);
        expect(await store.jobs.finish('slack-ev-7', 'failed', 'service_unavailable')).toBe(true);
        expect(await store.jobs.get('slack-ev-7')).toMatchObject({
          state: 'finished',
          outcome: 'failed',
          outcomeDetail: 'service_unavailable',
          finishedAt: clock.now(),
        });
        expect(await store.jobs.finish('slack-ev-7', 'done')).toBe(false);
        expect((await store.jobs.get('slack-ev-7'))?.outcome).toBe('failed');
        expect(await store.jobs.finish('slack-ev-unknown', 'done')).toBe(false);
      });

      it('gives out a Discord interaction token only until it expires', async () => {
        const expiresAt = new Date(clock.now().getTime() + 15 * MINUTE);
        await store.jobs.record(
          newJob('dc-int-2', { platform: 'discord', interaction: { token: 'interaction-token-secret', expiresAt } }),
        );
        expect((await store.jobs.get('dc-int-2'))?.interaction).toEqual({
          token: 'interaction-token-secret',
          expiresAt,
        });
        clock.advance(15 * MINUTE);
        expect((await store.jobs.get('dc-int-2'))?.interaction).toBeUndefined();
      });

      it('drops the interaction token when the job finishes', async () => {
        const expiresAt = new Date(clock.now().getTime() + 15 * MINUTE);
        await store.jobs.record(newJob('dc-int-3', { platform: 'discord', interaction: { token: 'tok', expiresAt } }));
        await store.jobs.finish('dc-int-3', 'done');
        const { rows } = await rawRows(url, `select interaction_token from jobs where id = 'dc-int-3'`);
        expect(rows).toEqual([{ interaction_token: null }]);
      });

      it('lists the unfinished jobs of the given platforms, oldest first', async () => {
        await store.jobs.record(newJob('slack-ev-b'));
        clock.advance(1000);
        await store.jobs.record(newJob('dc-int-a', { platform: 'discord' }));
        clock.advance(1000);
        await store.jobs.record(newJob('slack-ev-a'));
        await store.jobs.claim('slack-ev-a');
        clock.advance(1000);
        await store.jobs.record(newJob('slack-ev-done'));
        await store.jobs.finish('slack-ev-done', 'done');

        const ids = async (platforms: ('slack' | 'discord')[]) =>
          (await store.jobs.unfinished(platforms)).map((job) => job.id);
        expect(await ids(['slack'])).toEqual(['slack-ev-b', 'slack-ev-a']);
        expect(await ids(['discord'])).toEqual(['dc-int-a']);
        expect(await ids(['slack', 'discord'])).toEqual(['slack-ev-b', 'dc-int-a', 'slack-ev-a']);
        expect(await ids([])).toEqual([]);
      });
    });

    describe('image versions', () => {
      it('finds the versions a message shows, in order, once the message id is known', async () => {
        await store.jobs.record(newJob('slack-ev-img'));
        await store.versions.record(newVersion('slack-ev-img', 1));
        await store.versions.record(newVersion('slack-ev-img', 0));
        expect(await store.versions.byMessage('slack', 'C1', '1700.9')).toEqual([]);

        clock.advance(MINUTE);
        await store.versions.record(newVersion('slack-ev-img', 0, { messageId: '1700.9', fileId: 'F0' }));
        await store.versions.record(newVersion('slack-ev-img', 1, { messageId: '1700.9', fileId: 'F1' }));
        const shown = await store.versions.byMessage('slack', 'C1', '1700.9');
        expect(shown.map((version) => [version.index, version.fileId])).toEqual([
          [0, 'F0'],
          [1, 'F1'],
        ]);
        expect(shown[0]).toEqual({
          ...newVersion('slack-ev-img', 0, { messageId: '1700.9', fileId: 'F0' }),
          parent: undefined,
          ref: versionRef('slack-ev-img', 0),
          origin: 'generated',
          number: 1,
          aspectRatio: undefined,
          createdAt: new Date('2026-11-05T10:00:00.000Z'),
        });
        expect(await store.versions.byMessage('discord', 'C1', '1700.9')).toEqual([]);
      });

      it('keeps the version an edit was made from', async () => {
        await store.jobs.record(newJob('slack-ev-src'));
        await store.jobs.record(newJob('slack-ev-edit', { kind: 'edit' }));
        await store.versions.record(newVersion('slack-ev-src', 0, { messageId: '1700.1' }));
        await store.versions.record(
          newVersion('slack-ev-edit', 0, {
            messageId: '1700.2',
            parent: { jobId: 'slack-ev-src', index: 0 },
            prompt: 'make it black and white',
          }),
        );
        const edited = await store.versions.get({ jobId: 'slack-ev-edit', index: 0 });
        expect(edited?.parent).toEqual({ jobId: 'slack-ev-src', index: 0 });
        expect(edited?.prompt).toBe('make it black and white');
        expect(await store.versions.get({ jobId: 'slack-ev-edit', index: 1 })).toBeUndefined();
      });

      it('finds a version by the ref its buttons carry, with its lineage', async () => {
        await store.jobs.record(newJob('slack-cmd-a'));
        await store.jobs.record(newJob('slack-btn-b', { kind: 'vary' }));
        await store.versions.record(newVersion('slack-cmd-a', 0, { aspectRatio: '16:9' }));
        await store.versions.record(
          newVersion('slack-btn-b', 0, { parent: { jobId: 'slack-cmd-a', index: 0 }, origin: 'varied' }),
        );
        const generated = await store.versions.byRef(versionRef('slack-cmd-a', 0));
        expect(generated).toMatchObject({ jobId: 'slack-cmd-a', index: 0, origin: 'generated', number: 1 });
        expect(generated?.aspectRatio).toBe('16:9');
        const varied = await store.versions.byRef(versionRef('slack-btn-b', 0));
        expect(varied).toMatchObject({ origin: 'varied', number: 2, parent: { jobId: 'slack-cmd-a', index: 0 } });
        expect(await store.versions.byRef('AAAAAAAAAAAAAAAA')).toBeUndefined();
      });

      it('finds the newest version posted in a thread', async () => {
        await store.jobs.record(newJob('slack-ev-t1'));
        await store.jobs.record(newJob('slack-ev-t2'));
        await store.jobs.record(newJob('slack-ev-t3'));
        await store.versions.record(newVersion('slack-ev-t1', 0, { fileId: 'F0' }));
        await store.versions.record(newVersion('slack-ev-t1', 1, { fileId: 'F1' }));
        clock.advance(MINUTE);
        await store.versions.record(newVersion('slack-ev-t2', 0, { threadId: 'other-thread', fileId: 'F2' }));
        // Recorded as its result is being posted: not in the thread until the platform took it.
        await store.versions.record(newVersion('slack-ev-t3', 0));
        const latest = await store.versions.latestInThread('slack', 'C1', '1700000000.000100');
        expect([latest?.jobId, latest?.index]).toEqual(['slack-ev-t1', 1]);
        expect(await store.versions.latestInThread('slack', 'C1', 'no-such-thread')).toBeUndefined();
      });

      it('numbers versions per image tree in the order they are made, on every branch', async () => {
        const child = (jobId: string, parent: string, origin: 'edited' | 'varied' | 'restored') =>
          newVersion(jobId, 0, { parent: { jobId: parent, index: 0 }, origin, fileId: `F-${jobId}` });
        for (const id of ['v1', 'a', 'b', 'c', 'undo', 'd', 'other']) await store.jobs.record(newJob(id));
        expect((await store.versions.record(newVersion('v1', 0, { fileId: 'F-v1' }))).number).toBe(1);
        // Two variations of v1, then an edit of the second: each takes the tree's next number.
        expect((await store.versions.record(child('a', 'v1', 'varied'))).number).toBe(2);
        expect((await store.versions.record(child('b', 'v1', 'varied'))).number).toBe(3);
        expect((await store.versions.record(child('c', 'b', 'edited'))).number).toBe(4);
        // An undo of v4 shows v3 again (its parent is the version shown), with v3's number; the tree counts on.
        expect((await store.versions.record(child('undo', 'b', 'restored'))).number).toBe(3);
        expect((await store.versions.record(child('d', 'a', 'edited'))).number).toBe(5);
        // Recorded again once posted: the number stays.
        const posted = await store.versions.record({ ...child('d', 'a', 'edited'), messageId: 'M-d' });
        expect([posted.number, posted.messageId]).toEqual([5, 'M-d']);
        // Another image starts its own tree.
        expect((await store.versions.record(newVersion('other', 0))).number).toBe(1);
        expect((await store.versions.get({ jobId: 'b', index: 0 }))?.number).toBe(3);
      });

      it('gives versions made at once in one tree different numbers', async () => {
        await store.jobs.record(newJob('root'));
        await store.versions.record(newVersion('root', 0, { fileId: 'F-root' }));
        const ids = Array.from({ length: 6 }, (_, n) => `at-once-${n}`);
        for (const id of ids) await store.jobs.record(newJob(id));
        const recorded = await Promise.all(
          ids.map((id) =>
            store.versions.record(newVersion(id, 0, { parent: { jobId: 'root', index: 0 }, origin: 'varied' })),
          ),
        );
        expect(recorded.map((version) => version.number).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
      });
    });

    describe('usage ledger', () => {
      it('adds up today and this month in UTC, per user and per workspace', async () => {
        const entries: [string, string, Partial<Parameters<typeof usage>[1]>][] = [
          ['2026-10-31T23:59:59.999Z', 'last-month', { images: 100 }],
          ['2026-11-01T00:00:00.000Z', 'month-start', { images: 1, inputTokens: 10, outputTokens: 20 }],
          ['2026-11-04T23:59:59.999Z', 'yesterday', { images: 2 }],
          ['2026-11-05T00:00:00.000Z', 'today-1', { images: 4, inputTokens: 100, outputTokens: 200 }],
          ['2026-11-05T09:00:00.000Z', 'today-2', { inputTokens: 1000, outputTokens: 2000, tokensEstimated: true }],
          ['2026-11-05T09:30:00.000Z', 'other-user', { userId: 'U2', images: 8 }],
          ['2026-11-05T09:30:00.000Z', 'other-workspace', { workspaceId: 'T2', images: 16 }],
        ];
        for (const [at, id, entry] of entries) {
          clock.set(at);
          await store.jobs.record(newJob(id));
          await store.usage.record(usage(id, entry));
        }
        clock.set('2026-11-05T23:59:59.999Z');
        expect(await store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' })).toEqual({
          today: { images: 4, inputTokens: 1100, outputTokens: 2200, jobs: 2 },
          month: { images: 7, inputTokens: 1110, outputTokens: 2220, jobs: 4 },
        });
        expect((await store.usage.totals({ platform: 'slack', workspaceId: 'T1' })).today).toEqual({
          images: 12,
          inputTokens: 1100,
          outputTokens: 2200,
          jobs: 3,
        });
        expect((await store.usage.totals({ platform: 'discord', workspaceId: 'T1', userId: 'U1' })).month).toEqual({
          images: 0,
          inputTokens: 0,
          outputTokens: 0,
          jobs: 0,
        });
        clock.set('2026-11-06T00:00:00.000Z');
        expect((await store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' })).today.jobs).toBe(0);
      });

      it('counts a job once when its usage is recorded again', async () => {
        await store.jobs.record(newJob('slack-ev-u'));
        await store.usage.record(usage('slack-ev-u', { inputTokens: 50, outputTokens: 5, tokensEstimated: true }));
        await store.usage.record(usage('slack-ev-u', { inputTokens: 60, outputTokens: 6 }));
        expect((await store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' })).today).toEqual({
          images: 0,
          inputTokens: 60,
          outputTokens: 6,
          jobs: 1,
        });
      });

      it('keeps a DM apart from every workspace', async () => {
        await store.jobs.record(newJob('dc-dm', { platform: 'discord', workspaceId: undefined }));
        await store.usage.record(usage('dc-dm', { platform: 'discord', workspaceId: undefined, images: 1 }));
        expect((await store.usage.totals({ platform: 'discord', userId: 'U1' })).today.images).toBe(1);
        expect((await store.usage.totals({ platform: 'discord', workspaceId: 'G1', userId: 'U1' })).today.images).toBe(
          0,
        );
      });
    });

    describe('image reservations', () => {
      const userLimit = (images: number, userId = 'U1'): DailyImageLimit => ({
        scope: { platform: 'slack', workspaceId: 'T1', userId },
        images,
      });
      const workspaceLimit = (images: number): DailyImageLimit => ({
        scope: { platform: 'slack', workspaceId: 'T1' },
        images,
      });
      const today = async (scope: UsageScope = { platform: 'slack', workspaceId: 'T1', userId: 'U1' }) =>
        (await store.usage.totals(scope)).today;
      const used = async (id: string, entry: Partial<UsageEntry>) => {
        await store.jobs.record(newJob(id));
        await store.usage.record(usage(id, entry));
      };

      it('reserves within a daily limit, counting what the scope used today', async () => {
        clock.set('2026-11-04T23:59:59.999Z');
        await used('yesterday', { images: 10 });
        clock.set('2026-11-05T09:00:00.000Z');
        await used('earlier', { images: 3 });
        await store.jobs.record(newJob('reserving'));
        expect(await store.usage.reserveImages(reservationHolder('reserving'), 2, [userLimit(5)])).toBe(true);
        expect(await today()).toEqual({ images: 5, inputTokens: 0, outputTokens: 0, jobs: 2 });
        await store.jobs.record(newJob('no-limit'));
        expect(await store.usage.reserveImages(reservationHolder('no-limit'), 100, [])).toBe(true);
      });

      it('refuses a reservation past the limit and writes nothing', async () => {
        await used('earlier', { images: 3 });
        await store.jobs.record(newJob('refused'));
        expect(await store.usage.reserveImages(reservationHolder('refused'), 3, [userLimit(5)])).toBe(false);
        expect(await today()).toEqual({ images: 3, inputTokens: 0, outputTokens: 0, jobs: 1 });
        expect((await rawRows(url, `select job_id from usage_ledger where job_id = 'refused'`)).rows).toEqual([]);
      });

      it('keeps each limit to its scope: one user, or the whole workspace', async () => {
        await used('u1-earlier', { images: 3 });
        await used('u2-earlier', { userId: 'U2', images: 4 });
        await used('other-workspace', { workspaceId: 'T2', images: 50 });
        await used('dm', { platform: 'discord', workspaceId: undefined, images: 50 });
        for (const id of ['a', 'b', 'c', 'd']) await store.jobs.record(newJob(id));
        const both = (userId: string) => [userLimit(5, userId), workspaceLimit(10)];

        expect(await store.usage.reserveImages(reservationHolder('a'), 2, both('U1'))).toBe(true);
        // U1 is at its limit; U2 is not, and takes the workspace's last image.
        expect(await store.usage.reserveImages(reservationHolder('b'), 1, both('U1'))).toBe(false);
        expect(await store.usage.reserveImages(reservationHolder('b', { userId: 'U2' }), 1, both('U2'))).toBe(true);
        expect(await today({ platform: 'slack', workspaceId: 'T1' })).toMatchObject({ images: 10 });
        // A workspace limit, no user in its scope, counts every user's images.
        const u3 = reservationHolder('c', { userId: 'U3' });
        expect(await store.usage.reserveImages(u3, 1, [workspaceLimit(10)])).toBe(false);
        expect(await store.usage.reserveImages(u3, 1, [userLimit(1, 'U3')])).toBe(true);
        // A DM's scope has no workspace, apart from every workspace of the platform.
        const dm = reservationHolder('d', { platform: 'discord', workspaceId: undefined });
        const dmLimit = (images: number) => [{ scope: { platform: 'discord', userId: 'U1' }, images }] as const;
        expect(await store.usage.reserveImages(dm, 1, dmLimit(50))).toBe(false);
        expect(await store.usage.reserveImages(dm, 1, dmLimit(51))).toBe(true);
      });

      it("adds to the job's own entry, keeping its day, until the recorded usage replaces it", async () => {
        clock.set('2026-11-05T23:30:00.000Z');
        await store.jobs.record(newJob('job'));
        expect(await store.usage.reserveImages(reservationHolder('job'), 2, [userLimit(3)])).toBe(true);
        expect(await store.usage.reserveImages(reservationHolder('job'), 1, [userLimit(3)])).toBe(true);
        expect(await store.usage.reserveImages(reservationHolder('job'), 1, [userLimit(3)])).toBe(false);
        expect(await today()).toEqual({ images: 3, inputTokens: 0, outputTokens: 0, jobs: 1 });
        // Past midnight the entry still counts for the day it was made: today has room again.
        clock.set('2026-11-06T00:30:00.000Z');
        expect(await store.usage.reserveImages(reservationHolder('job'), 3, [userLimit(3)])).toBe(true);
        expect(await today()).toMatchObject({ images: 0, jobs: 0 });
        await store.usage.record(usage('job', { images: 4, inputTokens: 10, outputTokens: 20 }));
        clock.set('2026-11-05T23:59:00.000Z');
        expect(await today()).toEqual({ images: 4, inputTokens: 10, outputTokens: 20, jobs: 1 });
      });

      it('gives back reserved images, never below zero', async () => {
        await store.jobs.record(newJob('job'));
        await store.usage.reserveImages(reservationHolder('job'), 3, []);
        await store.usage.releaseImages('job', 2);
        expect(await today()).toMatchObject({ images: 1, jobs: 1 });
        await store.usage.releaseImages('job', 5);
        expect(await today()).toMatchObject({ images: 0, jobs: 1 });
        await store.usage.releaseImages('never-reserved', 1);
        expect((await rawRows(url, `select job_id from usage_ledger where job_id = 'never-reserved'`)).rows).toEqual(
          [],
        );
      });

      it('lets exactly the images left through when stores on one database race for them', async () => {
        await used('earlier', { images: 7 });
        const ids = Array.from({ length: 40 }, (_, n) => `racer-${n}`);
        for (const id of ids) await store.jobs.record(newJob(id));
        // Opened one after another: SQLite's migration check holds the file's write lock across awaits.
        const others: OpenedStore[] = [];
        try {
          for (let n = 0; n < 3; n++) others.push(await openStore(url, { now: clock.now }));
          const stores = [store, ...others];
          // Connections opened now, not while racing, which would spread the reservations out.
          await Promise.all(stores.flatMap((one) => ids.map(() => one.ping())));
          const reserved = await Promise.all(
            ids.map((id, n) =>
              stores[n % stores.length]?.usage.reserveImages(reservationHolder(id, { userId: `U${n}` }), 1, [
                workspaceLimit(10),
              ]),
            ),
          );
          expect(reserved.filter((got) => got === true)).toHaveLength(3);
        } finally {
          await Promise.all(others.map((other) => other.close()));
        }
        expect(await today({ platform: 'slack', workspaceId: 'T1' })).toMatchObject({ images: 10 });
      });

      // Two Node processes start: seconds on a loaded machine, so a wider limit than a unit test's.
      it('lets exactly the images left through when processes race for them', { timeout: 30_000 }, async () => {
        await used('earlier', { images: 5 });
        const racers = [0, 1].map((worker) => Array.from({ length: 20 }, (_, n) => `racer-${worker}-${n}`));
        for (const id of racers.flat()) await store.jobs.record(newJob(id));
        const processes = racers.map((ids) => startReservingProcess(url, clock.now(), 15, ids));
        await Promise.all(processes.map((child) => child.ready));
        const reserved = await Promise.all(processes.map((child) => child.go()));
        expect(reserved.reduce((sum, got) => sum + got, 0)).toBe(10);
        expect(await today({ platform: 'slack', workspaceId: 'T1' })).toMatchObject({ images: 15 });
      });
    });

    describe('settings', () => {
      const workspace = { level: 'workspace', platform: 'slack', workspaceId: 'T1' } as const;
      const channel = { level: 'channel', platform: 'slack', workspaceId: 'T1', channelId: 'C1' } as const;
      const user = { level: 'user', platform: 'slack', workspaceId: 'T1', userId: 'U1' } as const;

      it('keeps a value per scope and replaces it on put', async () => {
        await store.settings.put(workspace, 'aspect', '1:1');
        await store.settings.put(channel, 'aspect', { ratio: '16:9', locked: true });
        await store.settings.put(user, 'aspect', ['3:2']);
        await store.settings.put(user, 'aspect', ['2:3']);
        expect(await store.settings.get(workspace, 'aspect')).toBe('1:1');
        expect(await store.settings.get(channel, 'aspect')).toEqual({ ratio: '16:9', locked: true });
        expect(await store.settings.get(user, 'aspect')).toEqual(['2:3']);
        expect(await store.settings.get({ ...user, userId: 'U2' }, 'aspect')).toBeUndefined();
        expect(await store.settings.get(workspace, 'other')).toBeUndefined();
      });

      it('looks a key up at every level that applies, and forgets a deleted value', async () => {
        await store.settings.put(workspace, 'quota', 10);
        await store.settings.put(channel, 'quota', 20);
        await store.settings.put({ ...channel, channelId: 'C2' }, 'quota', 99);
        await store.settings.put(user, 'quota', null);
        expect(
          await store.settings.lookup('quota', { platform: 'slack', workspaceId: 'T1', channelId: 'C1', userId: 'U1' }),
        ).toEqual({
          workspace: 10,
          channel: 20,
          user: null,
        });
        expect(await store.settings.lookup('quota', { platform: 'slack', workspaceId: 'T1', userId: 'U2' })).toEqual({
          workspace: 10,
        });
        await store.settings.delete(workspace, 'quota');
        expect(await store.settings.lookup('quota', { platform: 'slack', workspaceId: 'T1' })).toEqual({});
      });

      it("reads a place's settings at once, the channel's beside its workspace's", async () => {
        await store.settings.put(workspace, 'images', 2);
        await store.settings.put(workspace, 'chat_model', 'm-a');
        await store.settings.put(channel, 'images', 3);
        await store.settings.put({ ...channel, channelId: 'C2' }, 'images', 4);
        await store.settings.put({ ...workspace, workspaceId: 'T2' }, 'images', 1);
        expect(await store.settings.place({ platform: 'slack', workspaceId: 'T1', channelId: 'C1' })).toEqual({
          images: { workspace: 2, channel: 3 },
          chat_model: { workspace: 'm-a' },
        });
        expect(await store.settings.place({ platform: 'slack', workspaceId: 'T1' })).toEqual({
          images: { workspace: 2 },
          chat_model: { workspace: 'm-a' },
        });
      });

      it('records every change with who, when and the value before, newest first', async () => {
        const first = await store.settings.change(channel, 'images', 2, 'U1');
        expect(first).toMatchObject({ previous: undefined, value: 2, by: 'U1' });
        clock.advance(MINUTE);
        await store.settings.change(channel, 'images', 3, 'U2');
        clock.advance(MINUTE);
        await store.settings.change(workspace, 'system_prompt', 'Be brief.', 'U3');
        clock.advance(MINUTE);
        const reset = await store.settings.change(channel, 'images', undefined, 'U1');
        expect(reset).toMatchObject({ previous: 3, value: undefined });
        await store.settings.change({ ...channel, channelId: 'C2' }, 'images', 4, 'U9');
        expect(await store.settings.get(channel, 'images')).toBeUndefined();
        expect(await store.settings.get(workspace, 'system_prompt')).toBe('Be brief.');
        const changes = await store.settings.changes({ platform: 'slack', workspaceId: 'T1', channelId: 'C1' }, 3);
        expect(changes.map(({ name, previous, value, by }) => ({ name, previous, value, by }))).toEqual([
          { name: 'images', previous: 3, value: undefined, by: 'U1' },
          { name: 'system_prompt', previous: undefined, value: 'Be brief.', by: 'U3' },
          { name: 'images', previous: 2, value: 3, by: 'U2' },
        ]);
        expect(changes[0]?.scope).toEqual(channel);
        expect(changes[0]?.at).toEqual(clock.now());
        expect(changes[1]?.scope).toEqual(workspace);
      });
    });

    describe('thread cache', () => {
      it('returns a thread oldest first, with edits applied and deletions gone', async () => {
        await store.threads.put(threadMessage('m2', '2026-11-05T09:00:02.000Z'));
        await store.threads.put(
          threadMessage('m1', '2026-11-05T09:00:01.000Z', {
            author: { id: 'B1', name: 'genbot', isBot: true, isSelf: true },
            attachments: [
              { id: 'F1', name: 'image-1.png', mimeType: 'image/png', size: 42 },
              { id: 'F2', name: 'notes' },
            ],
          }),
        );
        await store.threads.put(threadMessage('m3', '2026-11-05T09:00:03.000Z'));
        await store.threads.put(threadMessage('other', '2026-11-05T09:00:04.000Z', { threadId: 'T-200' }));
        await store.threads.put(threadMessage('m2', '2026-11-05T09:00:02.000Z', { text: 'edited' }));
        await store.threads.delete('slack', 'C1', 'm3');

        const thread = await store.threads.thread('slack', 'C1', 'T-100');
        expect(thread.map((message) => [message.id, message.text])).toEqual([
          ['m1', 'message m1'],
          ['m2', 'edited'],
        ]);
        expect(thread[0]).toEqual(
          threadMessage('m1', '2026-11-05T09:00:01.000Z', {
            author: { id: 'B1', name: 'genbot', isBot: true, isSelf: true },
            attachments: [
              { id: 'F1', name: 'image-1.png', mimeType: 'image/png', size: 42 },
              { id: 'F2', name: 'notes' },
            ],
          }),
        );
      });

      it('gives the newest messages of a long thread when limited, still oldest first', async () => {
        for (let second = 1; second <= 5; second++) {
          await store.threads.put(threadMessage(`m${second}`, `2026-11-05T09:00:0${second}.000Z`));
        }
        const newest = await store.threads.thread('slack', 'C1', 'T-100', { limit: 2 });
        expect(newest.map((message) => message.id)).toEqual(['m4', 'm5']);
      });

      it('keeps which run saw a message live, and a history read never overwrites a stored message', async () => {
        await store.threads.put(threadMessage('m1', '2026-11-05T09:00:01.000Z', { liveRun: 'run-a' }));
        await store.threads.put(threadMessage('m1', '2026-11-05T09:00:01.000Z', { text: 'from history' }), {
          keepExisting: true,
        });
        await store.threads.put(threadMessage('m2', '2026-11-05T09:00:02.000Z'), { keepExisting: true });
        const thread = await store.threads.thread('slack', 'C1', 'T-100');
        expect(thread.map((message) => [message.id, message.text, message.liveRun])).toEqual([
          ['m1', 'message m1', 'run-a'],
          ['m2', 'message m2', undefined],
        ]);
      });

      it('keeps a thread held whole on its first message, through its edits, and forgets it with that message', async () => {
        expect(await store.threads.markWhole('slack', 'C1', 'T-100', { run: 'run-a', through: 'm2' })).toBe(false);
        await store.threads.put(threadMessage('T-100', '2026-11-05T09:00:00.000Z'));
        await store.threads.put(threadMessage('m2', '2026-11-05T09:00:02.000Z'));
        expect(await store.threads.coverage('slack', 'C1', 'T-100')).toBeUndefined();
        expect(await store.threads.markWhole('slack', 'C1', 'T-100', { run: 'run-a', through: 'm2' })).toBe(true);
        await store.threads.put(
          threadMessage('T-100', '2026-11-05T09:00:00.000Z', { text: 'edited', liveRun: 'run-a' }),
        );
        expect(await store.threads.coverage('slack', 'C1', 'T-100')).toEqual({ run: 'run-a', through: 'm2' });
        expect(await store.threads.coverage('slack', 'C1', 'T-200')).toBeUndefined();
        await store.threads.delete('slack', 'C1', 'T-100');
        expect(await store.threads.coverage('slack', 'C1', 'T-100')).toBeUndefined();
      });
    });

    describe('retention sweep', () => {
      it('deletes old inputs, versions, thread messages and expired tokens, and keeps usage', async () => {
        clock.set('2026-10-01T00:00:00.000Z');
        await store.jobs.record(newJob('old'));
        await store.versions.record(newVersion('old', 0, { messageId: 'M-old' }));
        await store.usage.record(usage('old', { images: 1 }));
        await store.threads.put(threadMessage('t-old', '2026-10-01T00:00:00.000Z'));

        clock.set('2026-11-05T09:50:00.000Z');
        await store.jobs.record(
          newJob('new', { interaction: { token: 'tok', expiresAt: new Date('2026-11-05T09:55:00.000Z') } }),
        );
        await store.versions.record(newVersion('new', 0, { messageId: 'M-new', parent: { jobId: 'old', index: 0 } }));
        await store.threads.put(threadMessage('t-new', '2026-11-05T09:50:00.000Z'));

        clock.set('2026-11-05T10:00:00.000Z');
        expect(await store.sweep({ olderThanDays: 30 })).toEqual({
          jobInputsDeleted: 1,
          imageVersionsDeleted: 1,
          threadMessagesDeleted: 1,
          interactionTokensDeleted: 1,
        });
        expect((await store.jobs.get('old'))?.input).toBeNull();
        expect((await store.jobs.get('new'))?.input).toEqual(newJob('new').input);
        expect(await store.versions.get({ jobId: 'old', index: 0 })).toBeUndefined();
        expect((await store.versions.get({ jobId: 'new', index: 0 }))?.parent).toBeUndefined();
        expect((await store.threads.thread('slack', 'C1', 'T-100')).map((message) => message.id)).toEqual(['t-new']);
        expect((await rawRows(url, `select interaction_token from jobs where id = 'new'`)).rows).toEqual([
          { interaction_token: null },
        ]);
        clock.set('2026-10-01T12:00:00.000Z');
        expect((await store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' })).today.images).toBe(1);

        clock.set('2026-11-05T10:00:00.000Z');
        expect(await store.sweep({ olderThanDays: 30 })).toEqual({
          jobInputsDeleted: 0,
          imageVersionsDeleted: 0,
          threadMessagesDeleted: 0,
          interactionTokensDeleted: 0,
        });
      });
    });

    describe('schema', () => {
      it('migrates a database of the first schema version, keeping its rows', async () => {
        const oldUrl = await harness().freshUrl();
        const target = parseDatabaseUrl(oldUrl);
        const db = await connect(target);
        const [first] = Object.keys(MIGRATIONS);
        await migrate(db, target, first);
        const old = kyselyStore(db, target, { now: clock.now });
        await expect(old.threads.thread('slack', 'C1', 'T-100')).rejects.toThrow();
        await old.close();
        // Rows as the first schema wrote them: a generated image and an edit of it.
        await rawRows(
          oldUrl,
          `insert into jobs (id, kind, schema_version, platform, channel_id, user_id, input, state, created_at, updated_at)
           values ('from-v1', 'imagine', 1, 'slack', 'C1', 'U1', '{"prompt":"a lighthouse at dawn"}', 'queued',
                   '2026-11-05T09:00:00.000Z', '2026-11-05T09:00:00.000Z')`,
        );
        for (const [index, parent] of [
          [0, 'null'],
          [1, '0'],
        ]) {
          await rawRows(
            oldUrl,
            `insert into image_versions (job_id, image_index, platform, channel_id, message_id, mime_type, size_bytes,
               sha256, parent_job_id, parent_image_index, prompt, created_at)
             values ('from-v1', ${index}, 'slack', 'C1', 'M1', 'image/png', 1, 'ab', ${parent === 'null' ? 'null' : "'from-v1'"},
                     ${parent}, 'a lighthouse at dawn', '2026-11-05T09:00:00.000Z')`,
          );
        }

        const upgraded = await openStore(oldUrl, { now: clock.now });
        try {
          expect((await upgraded.jobs.get('from-v1'))?.input).toEqual({ prompt: 'a lighthouse at dawn' });
          const shown = await upgraded.versions.byMessage('slack', 'C1', 'M1');
          expect(shown.map((version) => [version.origin, version.number])).toEqual([
            ['generated', 1],
            ['edited', 2],
          ]);
          expect((await upgraded.versions.byRef(versionRef('from-v1', 1)))?.index).toBe(1);
          // The rows found their tree: a new variation of the first takes the tree's next number.
          await upgraded.jobs.record(newJob('after-upgrade'));
          const varied = await upgraded.versions.record(
            newVersion('after-upgrade', 0, { parent: { jobId: 'from-v1', index: 0 }, origin: 'varied' }),
          );
          expect(varied.number).toBe(3);
          await upgraded.threads.put(threadMessage('m1', '2026-11-05T09:00:00.000Z'));
          expect(await upgraded.threads.thread('slack', 'C1', 'T-100')).toHaveLength(1);
        } finally {
          await upgraded.close();
        }
      });

      it('opens an up-to-date database again without changing it', async () => {
        await store.jobs.record(newJob('kept'));
        const again = await openStore(url, { now: clock.now });
        try {
          expect((await again.jobs.get('kept'))?.id).toBe('kept');
        } finally {
          await again.close();
        }
      });

      // Two Node processes start and each migrates: seconds on a loaded machine, so a wider limit than a unit test's.
      it('migrates once when two processes open a new database at the same time', { timeout: 30_000 }, async () => {
        const sharedUrl = await harness().freshUrl();
        await Promise.all([openInAnotherProcess(sharedUrl, 'first'), openInAnotherProcess(sharedUrl, 'second')]);
        const opened = await openStore(sharedUrl);
        try {
          expect((await opened.jobs.unfinished(['slack'])).map((job) => job.id).sort()).toEqual(['first', 'second']);
        } finally {
          await opened.close();
        }
      });

      it('refuses a database that a newer genbot migrated, naming DATABASE_URL', async () => {
        await rawRows(url, `insert into kysely_migration (name, timestamp) values ('9999-from-the-future', 'x')`);
        const opening = openStore(url);
        await expect(opening).rejects.toBeInstanceOf(StoreUnavailableError);
        await expect(opening).rejects.toThrow(
          /^DATABASE_URL: .* was migrated by a newer genbot \(migrations 9999-from-the-future are unknown here\)/,
        );
      });

      it('answers ping while the database is there', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });
  });
}

/** Plain SQL beside the store, as an operator would query it. */
async function rawRows(url: string, query: string): Promise<{ rows: unknown[] }> {
  const db = await connect(parseDatabaseUrl(url));
  try {
    return await sql.raw(query).execute(db);
  } finally {
    await db.destroy();
  }
}
