import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GenAiClient, type MessagesRequest } from '@genbot/core/genai';
import { createLogger } from '@genbot/core/log';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import { parseSlackEnv } from '@genbot/slack-bot';
import { openStore } from '@genbot/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type Bots, openedDatabase, startBots } from '@genbot/cli/wiring';
import { SECRETS } from './support/harness.js';
import { eventually } from '@genbot/test-servers';

/**
 * The thread cache kept in the database (`thread_messages`) across a restart:
 * what the bot saw is still known, a thread it held whole is read again only
 * from where its knowledge ends, and a thread it saw in part is never taken
 * for the whole.
 */
const CHANNEL = 'C1';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  slack: SlackFake;
  emulator: Emulator;
  /** Starts the bot on the rig's SQLite file (a new run each time); stop the previous one first. */
  startBot(): Promise<Bots>;
}

async function startRig(): Promise<Rig> {
  const dir = mkdtempSync(path.join(tmpdir(), 'genbot-thread-cache-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const slack = await startSlackFake({ botToken: SECRETS.botToken, signingSecret: SECRETS.signingSecret });
  cleanups.push(() => slack.close());
  const emulator = await startEmulator({ apiKey: SECRETS.apiKey });
  cleanups.push(() => emulator.close());
  const logger = createLogger({ level: 'silent' });
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey: SECRETS.apiKey, retryBaseDelayMs: 5, logger });
  cleanups.push(() => client.close());
  const config = parseSlackEnv({
    SLACK_BOT_TOKEN: SECRETS.botToken,
    SLACK_SIGNING_SECRET: SECRETS.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
  });
  return {
    slack,
    emulator,
    async startBot() {
      const bots = await startBots({
        slack: { slack: config.bot! },
        models: { client, chatModel: 'claude-e2e', imageModel: 'gemini-image-e2e' },
        logger,
        database: openedDatabase(await openStore(`sqlite:${path.join(dir, 'genbot.db')}`)),
      });
      cleanups.push(() => bots.stop());
      await bots.working;
      slack.deliverTo(`http://127.0.0.1:${String(bots.slack?.port)}/slack/events`);
      return bots;
    },
  };
}

function repliesCalls(slack: SlackFake, since: number) {
  return slack.calls.slice(since).filter((call) => call.method === 'conversations.replies');
}

/** Mentions the bot in the thread; answers the conversation the model got, once the bot replied. */
async function mention(rig: Rig, threadTs: string): Promise<string> {
  const since = rig.emulator.requests.length;
  await rig.slack.userSays({ user: 'U1', channel: CHANNEL, threadTs, text: '<@UBOT> what did we say?' });
  const request = await rig.slack.waitFor(
    () => rig.emulator.requests.slice(since).find((r) => r.path.endsWith('/v1/messages')),
    { timeoutMs: 15_000 },
  );
  await rig.slack.waitFor(() => rig.slack.workspace.botMessages('UBOT', { channel: CHANNEL, threadTs })[0], {
    timeoutMs: 15_000,
  });
  return JSON.stringify((request.body as MessagesRequest).messages);
}

function numbered(context: string): string[] {
  return [...context.matchAll(/(seen|unseen|while down) (\d+)/g)].map((match) => `${match[1]} ${match[2]}`);
}

describe('Slack thread cache across a restart', () => {
  it('a thread seen whole: kept, and only what came while the bot was down is read', async () => {
    const rig = await startRig();
    const { slack } = rig;
    const first = await rig.startBot();
    const parent = await slack.userSays({ user: 'U2', channel: CHANNEL, text: 'seen 1: where do we meet?' });
    let last = parent.ts;
    for (let i = 2; i <= 5; i += 1) {
      last = (await slack.userSays({ user: 'U2', channel: CHANNEL, threadTs: parent.ts, text: `seen ${i}` })).ts;
    }
    await eventually(async () => (await first.jobs.store.threads.thread('slack', CHANNEL, parent.ts)).length === 5);
    await first.stop();

    slack.workspace.post({ channel: CHANNEL, user: 'U2', threadTs: parent.ts, text: 'while down 6' });
    await rig.startBot();
    const since = slack.calls.length;
    const context = await mention(rig, parent.ts);
    expect(numbered(context)).toEqual(['seen 1', 'seen 2', 'seen 3', 'seen 4', 'seen 5', 'while down 6']);
    const calls = repliesCalls(slack, since);
    expect(calls).toHaveLength(1);
    // From the last message the first run knew in an unbroken line, up to the first this run saw.
    expect(calls[0]?.args.oldest).toBe(last);
  });

  it('a thread seen in part is never taken for the whole: read from its start after the restart', async () => {
    const rig = await startRig();
    const { slack } = rig;
    const first = await rig.startBot();
    const parent = slack.workspace.post({ channel: CHANNEL, user: 'U2', text: 'unseen 1: where do we meet?' });
    slack.workspace.post({ channel: CHANNEL, user: 'U1', threadTs: parent.ts, text: 'unseen 2' });
    for (let i = 3; i <= 4; i += 1) {
      await slack.userSays({ user: 'U2', channel: CHANNEL, threadTs: parent.ts, text: `seen ${i}` });
    }
    await eventually(async () => (await first.jobs.store.threads.thread('slack', CHANNEL, parent.ts)).length === 2);
    await first.stop();

    await rig.startBot();
    const since = slack.calls.length;
    const context = await mention(rig, parent.ts);
    expect(numbered(context)).toEqual(['unseen 1', 'unseen 2', 'seen 3', 'seen 4']);
    const calls = repliesCalls(slack, since);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args.oldest).toBeUndefined();
  });
});
