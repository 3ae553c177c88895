import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copy } from '@genbot/core/copy';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import { openStore } from '@genbot/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type GenbotProcess, spawnGenbot } from '@genbot/test-servers/genbot';
import { jobFinished } from '../support/job-finished.js';

const API_KEY = 'restart-test-key-4Rk9';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startSlackProcess(
  slack: SlackFake,
  emulator: Emulator,
  databaseUrl: string,
  streaming: 'edit' | 'native' = 'edit',
): Promise<GenbotProcess> {
  const genbot = spawnGenbot(['slack'], {
    SLACK_STREAMING: streaming,
    SLACK_BOT_TOKEN: slack.identity.botToken,
    SLACK_SIGNING_SECRET: slack.identity.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
    GENAI_BASE_URL: emulator.url,
    GENAI_API_KEY: API_KEY,
    DATABASE_URL: databaseUrl,
  });
  cleanups.push(() => genbot.stop(5_000));
  const [, port] = await genbot.waitForLine(/^Slack: HTTP mode, .* at :(\d+)\/slack\/events$/, 60_000);
  slack.deliverTo(`http://127.0.0.1:${port}/slack/events`);
  return genbot;
}

describe('restart promise: a job accepted before a crash is finished after it, once', () => {
  it('SIGKILL mid-reply, then a start on the same SQLite file: the reply completes in the same message', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-restart-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const databaseUrl = `sqlite:${path.join(dir, 'genbot.db')}`;
    const slack = await startSlackFake({ botToken: 'xoxb-restart-test', signingSecret: 'restart-test-secret' });
    cleanups.push(() => slack.close());
    const emulator = await startEmulator({ apiKey: API_KEY });
    cleanups.push(() => emulator.close());
    const bot = slack.identity.botUserId;

    const first = await startSlackProcess(slack, emulator, databaseUrl);
    const mention = await slack.userSays({
      user: 'U1',
      channel: 'C1',
      text: `<@${bot}> tell me a long story [len:3000] [delay:150]`,
    });
    const threadTs = mention.threadTs ?? mention.ts;
    const replies = () => slack.workspace.botMessages(bot, { channel: 'C1', threadTs });
    // The reply is on the platform and being edited: its post was recorded before the first edit.
    await slack.waitFor(() => (replies()[0]?.edits.length ?? 0) > 1, { timeoutMs: 30_000 });
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const cut = replies()[0]?.text ?? '';

    const second = await startSlackProcess(slack, emulator, databaseUrl);
    const done = await slack.waitFor(
      () => {
        const [reply, ...more] = replies();
        return reply !== undefined && more.length === 0 && reply.stream === undefined && reply.text.length > cut.length
          ? reply
          : undefined;
      },
      { timeoutMs: 60_000, quietMs: 1_500 },
    );
    expect(done.text).toMatch(/^You said/);
    expect(done.text).not.toContain(copy.restarting);
    expect(replies()).toHaveLength(1);
    expect((await second.stop()).code).toBe(0);

    const store = await openStore(databaseUrl);
    try {
      const [job] = await store.jobs.unfinished(['slack']);
      expect(job).toBeUndefined();
      const recorded = await store.jobs.get(
        `slack-ev-${mention.deliveries.find((d) => d.eventType === 'app_mention')?.eventId}`,
      );
      expect(recorded).toMatchObject({ state: 'finished', outcome: 'done', attempts: 2 });
      expect(recorded?.steps.filter((step) => step.name === 'posted')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('SLACK_STREAMING=native, SIGKILL mid-stream: the reply is finished in the stream’s message, no second one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-restart-native-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const databaseUrl = `sqlite:${path.join(dir, 'genbot.db')}`;
    const slack = await startSlackFake({ botToken: 'xoxb-restart-native', signingSecret: 'restart-native-secret' });
    cleanups.push(() => slack.close());
    const emulator = await startEmulator({ apiKey: API_KEY });
    cleanups.push(() => emulator.close());
    const bot = slack.identity.botUserId;

    const first = await startSlackProcess(slack, emulator, databaseUrl, 'native');
    const mention = await slack.userSays({
      user: 'U1',
      channel: 'C1',
      text: `<@${bot}> tell me a long story [len:3000] [delay:150]`,
    });
    const threadTs = mention.threadTs ?? mention.ts;
    const replies = () => slack.workspace.botMessages(bot, { channel: 'C1', threadTs });
    const jobId = `slack-ev-${mention.deliveries.find((d) => d.eventType === 'app_mention')?.eventId}`;
    // The stream runs and has been appended to: its start was recorded before the first append.
    await slack.waitFor(() => replies()[0]?.stream?.state === 'streaming' && replies()[0]!.edits.length > 1, {
      timeoutMs: 30_000,
    });
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const [cut] = replies();
    expect(cut?.stream?.state).toBe('streaming');
    const startsBefore = slack.calls.filter((call) => call.method === 'chat.startStream').length;

    const second = await startSlackProcess(slack, emulator, databaseUrl, 'native');
    const done = await slack.waitFor(
      () => {
        const [reply, ...more] = replies();
        return reply !== undefined && more.length === 0 && reply.stream?.state === 'stopped' && /\.$/.test(reply.text)
          ? reply
          : undefined;
      },
      { timeoutMs: 60_000, quietMs: 1_500 },
    );
    expect(done.ts).toBe(cut?.ts);
    expect(done.text).toMatch(/^You said/);
    expect(done.text.length).toBeGreaterThan(2_000);
    expect(done.text).not.toContain(copy.restarting);
    expect(replies()).toHaveLength(1);
    expect(slack.calls.filter((call) => call.method === 'chat.startStream')).toHaveLength(startsBefore);
    expect((await second.stop()).code).toBe(0);

    const store = await openStore(databaseUrl);
    try {
      expect(await store.jobs.unfinished(['slack'])).toEqual([]);
      const recorded = await store.jobs.get(jobId);
      expect(recorded).toMatchObject({ state: 'finished', outcome: 'done', attempts: 2 });
      expect(recorded?.steps.map((step) => [step.name, step.messageId])).toEqual([['streamed', cut?.ts]]);
    } finally {
      await store.close();
    }
  });

  it('SIGKILL between a result and a press: the button works on the next process, from the stored record', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-restart-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const databaseUrl = `sqlite:${path.join(dir, 'genbot.db')}`;
    const slack = await startSlackFake({ botToken: 'xoxb-restart-test', signingSecret: 'restart-test-secret' });
    cleanups.push(() => slack.close());
    const emulator = await startEmulator({ apiKey: API_KEY });
    cleanups.push(() => emulator.close());
    const bot = slack.identity.botUserId;

    const first = await startSlackProcess(slack, emulator, databaseUrl);
    const run = await slack.userRunsCommand({ user: 'U1', channel: 'C1', command: '/imagine', text: 'a red kite' });
    const result = await slack.waitFor(
      (ws) => ws.botMessages(bot, { channel: 'C1' }).find((message) => message.fileIds.length > 0),
      { timeoutMs: 30_000 },
    );
    // Killed once the job is finished, so its versions (what the buttons point at) are recorded.
    const jobId = `slack-cmd-${run.triggerId}`;
    await waitForJob(databaseUrl, jobId);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await startSlackProcess(slack, emulator, databaseUrl);
    const vary = result.blocks
      ?.flatMap((block) => (block as { elements?: { action_id: string; text: { text: string } }[] }).elements ?? [])
      .find((element) => element.text.text === 'Vary');
    expect(vary).toBeDefined();
    await slack.userPresses({ user: 'U2', channel: 'C1', ts: result.ts, actionId: vary?.action_id ?? '' });
    const varied = await slack.waitFor(
      (ws) =>
        ws
          .botMessages(bot, { channel: 'C1', threadTs: result.ts })
          .find((message) => message.fileIds.length > 0 && message.ts !== result.ts),
      { timeoutMs: 30_000 },
    );
    expect(JSON.stringify(varied.blocks)).toContain('v2 · from v1 · variation');
    expect((await second.stop()).code).toBe(0);
  });
});

/** Waits until the job is finished in the store (read from outside the process, as an operator would). */
async function waitForJob(databaseUrl: string, jobId: string): Promise<void> {
  const store = await openStore(databaseUrl);
  try {
    await jobFinished(store, jobId);
  } finally {
    await store.close();
  }
}
