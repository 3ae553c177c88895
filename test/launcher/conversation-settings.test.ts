import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmulator } from '@genbot/emulator';
import { startDiscordFake, startSlackFake } from '@genbot/fakes';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequestWith } from '../support/chat-request.js';
import { spawnGenbot } from '@genbot/test-servers/genbot';

const API_KEY = 'conversation-settings-key-8Tq2';
const SYSTEM_PROMPT = 'You are Ferris, the assistant of the lighthouse team.\nAnswer in one short paragraph.';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('genbot start with CHAT_SYSTEM_PROMPT, CHAT_MAX_TOKENS and CHAT_TOOLS: both bots ask with them', () => {
  it('a Slack and a Discord mention carry the prompt, max_tokens, and a per-user hash that is no platform ID', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-voice-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const slack = await startSlackFake({ botToken: 'xoxb-voice-test', signingSecret: 'voice-test-secret' });
    cleanups.push(() => slack.close());
    const discord = await startDiscordFake({ botToken: 'discord-voice-test' });
    cleanups.push(() => discord.close());
    const emulator = await startEmulator({ apiKey: API_KEY });
    cleanups.push(() => emulator.close());
    const genbot = spawnGenbot(['start'], {
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_SIGNING_SECRET: slack.identity.signingSecret,
      SLACK_API_URL: slack.apiUrl,
      SLACK_PORT: '0',
      DISCORD_TOKEN: discord.botToken,
      DISCORD_API_URL: discord.apiUrl,
      GENAI_BASE_URL: emulator.url,
      GENAI_API_KEY: API_KEY,
      DATABASE_URL: `sqlite:${path.join(dir, 'genbot.db')}`,
      CHAT_SYSTEM_PROMPT: SYSTEM_PROMPT,
      CHAT_MAX_TOKENS: '777',
    });
    cleanups.push(() => genbot.stop(5_000));
    const [, port] = await genbot.waitForLine(/^Slack: HTTP mode, .* at :(\d+)\/slack\/events$/, 60_000);
    await genbot.waitForLine(/^Discord: gateway connected/, 60_000);
    slack.deliverTo(`http://127.0.0.1:${port}/slack/events`);

    await slack.userSays({ user: 'U1', channel: 'C1', text: `<@${slack.identity.botUserId}> slack question` });
    const fromSlack = await chatRequestWith(emulator, 'slack question');
    const asker = discord.userSays({
      user: 'ada',
      channelId: discord.channelId('general'),
      content: `<@${discord.botUser.id}> discord question`,
    }).author;
    const fromDiscord = await chatRequestWith(emulator, 'discord question');

    for (const [request, userId] of [
      [fromSlack, 'U1'],
      [fromDiscord, asker.id],
    ] as const) {
      expect(request.system).toBe(SYSTEM_PROMPT);
      expect(request.max_tokens).toBe(777);
      expect(request.metadata?.user_id).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(request.metadata)).not.toContain(userId);
      expect(request.tools?.map((tool) => tool.name)).toEqual(['generate_image', 'edit_image']);
    }
    expect(fromSlack.metadata?.user_id).not.toBe(fromDiscord.metadata?.user_id);
    expect((await genbot.stop(5_000)).code).toBe(0);
  });

  it('with CHAT_TOOLS=off a conversation offers no tools, and a request for a picture draws nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'genbot-tools-off-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const slack = await startSlackFake({ botToken: 'xoxb-tools-off', signingSecret: 'tools-off-secret' });
    cleanups.push(() => slack.close());
    const emulator = await startEmulator({ apiKey: API_KEY });
    cleanups.push(() => emulator.close());
    const genbot = spawnGenbot(['slack'], {
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_SIGNING_SECRET: slack.identity.signingSecret,
      SLACK_API_URL: slack.apiUrl,
      SLACK_PORT: '0',
      GENAI_BASE_URL: emulator.url,
      GENAI_API_KEY: API_KEY,
      DATABASE_URL: `sqlite:${path.join(dir, 'genbot.db')}`,
      CHAT_TOOLS: 'off',
    });
    cleanups.push(() => genbot.stop(5_000));
    const [, port] = await genbot.waitForLine(/^Slack: HTTP mode, .* at :(\d+)\/slack\/events$/, 60_000);
    slack.deliverTo(`http://127.0.0.1:${port}/slack/events`);

    await slack.userSays({ user: 'U1', channel: 'C1', text: `<@${slack.identity.botUserId}> draw a lighthouse` });
    const request = await chatRequestWith(emulator, 'draw a lighthouse');
    expect(request.tools).toBeUndefined();
    expect((await genbot.stop(5_000)).code).toBe(0);
    expect(emulator.requests.filter((sent) => sent.path.includes(':generateContent'))).toEqual([]);
  });
});
