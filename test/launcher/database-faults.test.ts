import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copy } from '@genbot/core/copy';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import { openStore } from '@genbot/store';
import { findPostgresBin, installedOrSkipped, POSTGRES_INSTALL_HINT, startPostgres } from '@genbot/test-servers';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type GenbotProcess, spawnGenbot } from '@genbot/test-servers/genbot';
import { eventually } from '@genbot/test-servers';
import { jobFinished } from '../support/job-finished.js';

const API_KEY = 'db-faults-key-8Wq3';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  genbot: GenbotProcess;
  slack: SlackFake;
  healthUrl: string;
}

async function startWithDatabase(databaseUrl: string): Promise<Running> {
  const slack = await startSlackFake({ botToken: 'xoxb-db-faults', signingSecret: 'db-faults-secret' });
  cleanups.push(() => slack.close());
  const emulator: Emulator = await startEmulator({ apiKey: API_KEY });
  cleanups.push(() => emulator.close());
  const genbot = spawnGenbot(['slack'], {
    SLACK_BOT_TOKEN: slack.identity.botToken,
    SLACK_SIGNING_SECRET: slack.identity.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
    GENAI_BASE_URL: emulator.url,
    GENAI_API_KEY: API_KEY,
    DATABASE_URL: databaseUrl,
    HEALTH_PORT: '0',
  });
  cleanups.push(() => genbot.stop(5_000));
  const [, port] = await genbot.waitForLine(/^Slack: HTTP mode, .* at :(\d+)\/slack\/events$/, 60_000);
  const [, healthPort] = await genbot.waitForLine(/^Health: .* at :(\d+)$/, 10_000);
  slack.deliverTo(`http://127.0.0.1:${port}/slack/events`);
  return { genbot, slack, healthUrl: `http://127.0.0.1:${healthPort}` };
}

async function readyz(running: Running): Promise<{ status: number; body: string }> {
  const ask = () => fetch(`${running.healthUrl}/readyz`);
  // A kept-alive connection the server closed between two probes resets once: ask again on a new one.
  const response = await ask()
    .catch(ask)
    .catch((error: unknown) => {
      throw new Error(
        `/readyz did not answer (${String(error)}); genbot stderr:\n${running.genbot.stderr().slice(-3000)}`,
      );
    });
  return { status: response.status, body: await response.text() };
}

/** `/imagine` as a user runs it: the private answer it got, if any, and its job's id. */
async function imagine(running: Running, prompt: string): Promise<{ answer: string | undefined; jobId: string }> {
  const { slack } = running;
  const before = slack.workspace.ephemerals.length;
  const run = await slack.userRunsCommand({ user: 'U1', channel: 'C1', command: '/imagine', text: prompt });
  expect(run.delivery.attempts[0]?.acked).toBe(true);
  return {
    answer: slack.workspace.ephemerals.slice(before).find((e) => e.user === 'U1')?.text,
    jobId: `slack-cmd-${run.triggerId}`,
  };
}

async function imagineAnswer(running: Running, prompt: string): Promise<string | undefined> {
  return (await imagine(running, prompt)).answer;
}

const storeUnavailable =
  "⚠️ I can't take requests right now (my storage is unavailable). Please try again in a few minutes.";

/** Starts genbot on a database only an operator can fix: it must stop at once, saying why, with the configuration status. */
async function refusedAtStart(databaseUrl: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const slack = await startSlackFake({ botToken: 'xoxb-db-faults', signingSecret: 'db-faults-secret' });
  cleanups.push(() => slack.close());
  const genbot = spawnGenbot(['slack'], {
    SLACK_BOT_TOKEN: slack.identity.botToken,
    SLACK_SIGNING_SECRET: slack.identity.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
    DATABASE_URL: databaseUrl,
    HEALTH_PORT: '0',
  });
  cleanups.push(() => genbot.stop(5_000));
  const exit = await genbot.exited;
  expect(exit.signal).toBeNull();
  return { code: exit.code, stderr: genbot.stderr(), stdout: genbot.stdout() };
}

/** Root writes through file modes, so as root the file is made immutable as well. */
function makeReadOnly(file: string): void {
  chmodSync(file, 0o444);
  if (process.getuid?.() !== 0) return;
  execFileSync('chattr', ['+i', file]);
  cleanups.push(() => execFileSync('chattr', ['-i', file]));
}

describe('a database file only an operator can fix: one line naming DATABASE_URL, the configuration status, no crash loop', () => {
  it('a SQLite file that is not a database: exits 2, the file left as it was', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-corrupt-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'genbot.db');
    const garbage = Buffer.from('this is not a SQLite database, and must stay as it is\n'.repeat(200));
    writeFileSync(file, garbage);
    const refused = await refusedAtStart(`sqlite:${file}`);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^genbot: could not start: DATABASE_URL: sqlite:.*genbot\.db is not a SQLite database, or it is damaged: move it away to start with an empty one, or point DATABASE_URL at another file/m,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(refused.stdout).not.toMatch(/^Slack:/m);
    expect(readFileSync(file).equals(garbage)).toBe(true);
  });

  it('a SQLite file that cannot be written: exits 2, what it holds kept', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-read-only-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'genbot.db');
    const store = await openStore(`sqlite:${file}`);
    await store.jobs.record({
      id: 'kept-job',
      kind: 'imagine',
      schemaVersion: 1,
      platform: 'slack',
      channelId: 'C1',
      userId: 'U1',
      input: { prompt: 'kept' },
    });
    await store.close();
    const before = readFileSync(file);
    makeReadOnly(file);
    const refused = await refusedAtStart(`sqlite:${file}`);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^genbot: could not start: DATABASE_URL: sqlite:.*genbot\.db cannot be opened for writing: check the permissions of the file and its directory, or point DATABASE_URL at another file/m,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

describe('a database that cannot be used for now: clear message, /readyz 503, new work refused, no crash, nothing lost', () => {
  beforeAll(() => {
    expect(copy.storeUnavailable).toBe(storeUnavailable);
  });

  describe.runIf(
    installedOrSkipped({ name: 'PostgreSQL', found: findPostgresBin() !== undefined, install: POSTGRES_INSTALL_HINT }),
  )('PostgreSQL', () => {
    it('down at start, then up: refused while down, then work is taken; gone mid-run: refused again, what was recorded stays', async () => {
      const server = await startPostgres();
      cleanups.push(() => server.close());
      await server.stop();
      const running = await startWithDatabase(server.url);
      expect(running.genbot.stdout()).toMatch(/^Database: not reachable yet.*DATABASE_URL/m);
      expect((await readyz(running)).status).toBe(503);
      expect(await imagineAnswer(running, 'while down')).toBe(storeUnavailable);

      await server.start();
      await eventually(async () => (await readyz(running)).status === 200, { timeoutMs: 30_000 });
      const taken = await imagine(running, 'a harbour at noon');
      expect(taken.answer).toBeUndefined();
      const watcher = await openStore(server.url);
      try {
        await jobFinished(watcher, taken.jobId);
      } finally {
        await watcher.close();
      }
      expect(running.slack.workspace.files.size).toBeGreaterThan(0);

      await server.stop();
      await eventually(async () => (await readyz(running)).status === 503, { timeoutMs: 30_000 });
      const gone = await readyz(running);
      expect(gone.body, running.genbot.stderr().slice(-3000)).toMatch(/^database: DATABASE_URL/);
      expect(await imagineAnswer(running, 'while gone')).toBe(storeUnavailable);
      expect(running.genbot.child.exitCode).toBeNull();

      await server.start();
      await eventually(async () => (await readyz(running)).status === 200, { timeoutMs: 30_000 });
      expect((await running.genbot.stop()).code).toBe(0);
      const store = await openStore(server.url);
      try {
        const unfinished = await store.jobs.unfinished(['slack']);
        expect(unfinished).toEqual([]);
        const { today } = await store.usage.totals({
          platform: 'slack',
          userId: 'U1',
          workspaceId: running.slack.identity.teamId,
        });
        expect(today).toMatchObject({ jobs: 1 });
        expect(today.images).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    });

    it('gone while a job runs: the job waits for it and finishes once it is back, without a restart, answered once', async () => {
      const server = await startPostgres();
      cleanups.push(() => server.close());
      const running = await startWithDatabase(server.url);
      const { slack } = running;
      const prompt = 'a lighthouse in a storm [fault:slow=2500]';
      const taken = await imagine(running, prompt);
      expect(taken.answer).toBeUndefined();
      // The progress message is on screen and recorded; the images are still being made.
      const watcher = await openStore(server.url);
      try {
        await eventually(async () => (await watcher.jobs.get(taken.jobId))?.steps.length === 1, { timeoutMs: 30_000 });
      } finally {
        await watcher.close();
      }
      await server.stop();
      await eventually(
        async () => running.genbot.stderr().includes('the database cannot be used: the job waits for it'),
        { timeoutMs: 30_000 },
      );
      expect((await readyz(running)).status).toBe(503);

      await server.start();
      const store = await openStore(server.url);
      try {
        await jobFinished(store, taken.jobId);
        const record = await store.jobs.get(taken.jobId);
        expect(record).toMatchObject({ outcome: 'done', attempts: 1 });
        // The progress message gave way to the result once it showed.
        expect(record?.steps.map((step) => step.name)).toEqual(['posted', 'uploaded', 'deleted']);
        expect(await store.jobs.unfinished(['slack'])).toEqual([]);
        const { today } = await store.usage.totals({
          platform: 'slack',
          userId: 'U1',
          workspaceId: slack.identity.teamId,
        });
        expect(today.images).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
      expect(running.genbot.child.exitCode).toBeNull();
      const messages = slack.workspace.botMessages(slack.identity.botUserId, { channel: 'C1' });
      expect(messages.filter((m) => m.fileIds.length > 0)).toHaveLength(1);
      expect(messages.filter((m) => m.fileIds.length === 0).map((m) => m.text)).toEqual([]);
      expect(slack.workspace.files.size).toBe(1);
      expect((await running.genbot.stop()).code).toBe(0);
    });
  });
});
