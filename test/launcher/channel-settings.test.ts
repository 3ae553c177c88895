import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmulator } from '@genbot/emulator';
import { startSlackFake } from '@genbot/fakes';
import { openStore } from '@genbot/store';
import { spawnGenbot } from '@genbot/test-servers/genbot';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequestWith } from '../support/chat-request.js';
import { jobFinished } from '../support/job-finished.js';

const API_KEY = 'channel-settings-key-4Hw9';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('genbot slack with CHAT_MODELS, IMAGE_MODELS and BUDGET_IMAGES_PER_DAY', () => {
  it("asks with a channel's chosen models, other channels with the defaults, and holds the workspace to its budget", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-channel-settings-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const slack = await startSlackFake({ botToken: 'xoxb-settings-test', signingSecret: 'settings-test-secret' });
    cleanups.push(() => slack.close());
    const emulator = await startEmulator({ apiKey: API_KEY });
    cleanups.push(() => emulator.close());
    const databaseUrl = `sqlite:${path.join(dir, 'genbot.db')}`;
    const genbot = spawnGenbot(['slack'], {
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_SIGNING_SECRET: slack.identity.signingSecret,
      SLACK_API_URL: slack.apiUrl,
      SLACK_PORT: '0',
      GENAI_BASE_URL: emulator.url,
      GENAI_API_KEY: API_KEY,
      DATABASE_URL: databaseUrl,
      CHAT_MODELS: 'chat-plain,chat-pirate',
      IMAGE_MODELS: 'image-plain,image-bold',
      BUDGET_IMAGES_PER_DAY: '1',
      ADMIN_USER_IDS: 'U2',
    });
    cleanups.push(() => genbot.stop(5_000));
    const [, port] = await genbot.waitForLine(/^Slack: HTTP mode, .* at :(\d+)\/slack\/events$/, 60_000);
    slack.deliverTo(`http://127.0.0.1:${port}/slack/events`);

    // Chosen for C1 as `/genbot` records it, by another process on the same database.
    const store = await openStore(databaseUrl);
    cleanups.push(() => store.close());
    const c1 = { level: 'channel', platform: 'slack', workspaceId: slack.identity.teamId, channelId: 'C1' } as const;
    await store.settings.change(c1, 'chat_model', 'chat-pirate', 'UADMIN');
    await store.settings.change(c1, 'image_model', 'image-bold', 'UADMIN');

    await slack.userSays({ user: 'U1', channel: 'C1', text: `<@${slack.identity.botUserId}> ahoy from C1` });
    expect((await chatRequestWith(emulator, 'ahoy from C1')).model).toBe('chat-pirate');
    await slack.userSays({ user: 'U1', channel: 'C2', text: `<@${slack.identity.botUserId}> hello from C2` });
    expect((await chatRequestWith(emulator, 'hello from C2')).model).toBe('chat-plain');

    const imagine = async (user: string, prompt: string) => {
      const before = slack.workspace.ephemerals.length;
      const run = await slack.userRunsCommand({ user, channel: 'C1', command: '/imagine', text: prompt });
      return {
        jobId: `slack-cmd-${run.triggerId}`,
        answer: slack.workspace.ephemerals.slice(before).find((ephemeral) => ephemeral.user === user)?.text,
      };
    };
    const first = await imagine('U1', 'a lighthouse');
    expect(first.answer).toBeUndefined();
    expect(await jobFinished(store, first.jobId)).toMatchObject({ outcome: 'done' });
    const drawn = emulator.requests.filter((request) => request.path.includes(':generateContent'));
    expect(drawn.map((request) => request.path)).toEqual([expect.stringContaining('/models/image-bold:')]);
    // Another person of the workspace: the budget is everyone's.
    const second = await imagine('U2', 'a harbour');
    expect(second.answer).toMatch(/^🛑 This workspace has used its 1 image for today\. The budget resets/);
    expect(emulator.requests.filter((request) => request.path.includes(':generateContent'))).toHaveLength(1);

    // U2 is no workspace admin on Slack, but ADMIN_USER_IDS names them: they may change settings; U1 may not.
    const genbotSays = async (user: string, text: string) => {
      const before = slack.workspace.ephemerals.length;
      await slack.userRunsCommand({ user, channel: 'C2', command: '/genbot', text });
      return slack.workspace.ephemerals.slice(before).find((ephemeral) => ephemeral.user === user)?.text;
    };
    expect(await genbotSays('U1', 'set images 2')).toContain('Only workspace admins and owners');
    expect(await genbotSays('U2', 'set images 2')).toContain('is now `2`');
    expect(
      await store.settings.changes({ platform: 'slack', workspaceId: slack.identity.teamId, channelId: 'C2' }, 5),
    ).toMatchObject([{ name: 'images', value: 2, by: 'U2' }]);
    expect((await genbot.stop(5_000)).code).toBe(0);
  });
});
