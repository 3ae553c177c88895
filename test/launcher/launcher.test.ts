import { startEmulator } from '@genbot/emulator';
import { startDiscordFake, startSlackFake, type DiscordFake, type SlackFake } from '@genbot/fakes';
import type { PlaygroundSnapshot } from '@genbot/playground';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnGenbot, type GenbotProcess } from '@genbot/test-servers/genbot';
import { followFeed, postJson, repliesComplete, startPlaygroundProcess, startSlowReplies } from './genbot-process.js';
import { eventually } from '@genbot/test-servers';

const running: GenbotProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((genbot) => genbot.stop(5000)));
});

function track(genbot: GenbotProcess): GenbotProcess {
  running.push(genbot);
  return genbot;
}

describe('genbot start with no token: the playground', () => {
  it('prints the playground address and serves the page and its state', async () => {
    const { genbot, url } = await startPlaygroundProcess();
    track(genbot);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="importmap">');
    const state = (await (await fetch(new URL('api/state', url))).json()) as PlaygroundSnapshot;
    expect(state.service.emulated).toBe(true);
    expect(state.slack.channel.name).toBe('general');
    expect(state.discord.channel.name).toBe('general');
    // The Discord bot registered /imagine, with its aspect-ratio choice, globally as production does.
    expect(state.discord.commands.map((c) => c.name)).toContain('imagine');
    // So the DM with the bot offers it too, and the bot draws there.
    await postJson(new URL('api/discord/commands', url).href, {
      name: 'imagine',
      options: { prompt: 'a paper kite' },
      dm: true,
      user: 'bob',
    });
    await eventually(
      async () => {
        const now = (await (await fetch(new URL('api/state', url))).json()) as PlaygroundSnapshot;
        const dm = now.discordDms.find((each) => each.person === 'bob');
        return dm?.messages.some((message) => message.isBot && message.files.length > 0) === true ? true : undefined;
      },
      { timeoutMs: 30_000, what: "/imagine's result in bob's DM" },
    );
    expect(genbot.stdout()).toMatch(/^Service: offline emulator/m);
    expect(genbot.stdout()).toMatch(/^Models: chat \S+, images \S+$/m);
  });

  it('on SIGTERM during slow streams, lets both replies finish, then exits 0', async () => {
    const { genbot, url } = await startPlaygroundProcess();
    track(genbot);
    const feed = followFeed<PlaygroundSnapshot>(url);
    const replies = await startSlowReplies(url, feed);
    // Both replies have started streaming and are far from complete.
    expect(replies.slack(feed.latest())?.length ?? 0).toBeLessThan(800);
    expect(replies.discord(feed.latest())?.length ?? 0).toBeLessThan(800);

    const stoppedAt = Date.now();
    genbot.child.kill('SIGTERM');
    // New work is refused while draining.
    await eventually(() => feed.latest()?.closing, { timeoutMs: 5000, what: 'the playground to say it is closing' });
    const refused = await fetch(new URL('api/slack/messages', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'too late' }),
    }).catch(() => undefined);
    if (refused) expect(refused.status).toBe(503);

    const { code, signal } = await genbot.exited;
    await feed.ended.catch(() => undefined);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // It waited for the streams (about 3 s at 200 ms a delta), and did not hang on.
    expect(Date.now() - stoppedAt).toBeGreaterThan(1000);

    const final = feed.latest();
    expect(final?.closing).toBe(true);
    expect(repliesComplete(replies, final)).toBe(true);
    expect(genbot.stderr()).toMatch(/SIGTERM received, finishing replies in progress/);
  });
});

describe('genbot start with no token and GENAI_BASE_URL set: the playground on the configured service', () => {
  it('uses that service (and its key) instead of the emulator, and never prints the key', async () => {
    const apiKey = 'configured-key-never-printed';
    const service = await startEmulator({ apiKey, pathPrefix: '/proxy' });
    try {
      // The emulator's url carries its path prefix, as a gateway's would.
      expect(service.url).toMatch(/\/proxy$/);
      const { genbot, url } = await startPlaygroundProcess({
        GENAI_BASE_URL: `${service.url}/`,
        GENAI_API_KEY: apiKey,
      });
      track(genbot);
      expect(genbot.stdout()).toContain(`Service: ${service.url}/\n`);
      const state = (await (await fetch(new URL('api/state', url))).json()) as PlaygroundSnapshot;
      expect(state.service.emulated).toBe(false);
      const posted = (await postJson(new URL('api/discord/messages', url).href, { content: '@genbot hello' })) as {
        id: string;
      };
      const feed = followFeed<PlaygroundSnapshot>(url);
      await eventually(
        () =>
          feed
            .latest()
            ?.discord.messages.find((m) => m.isBot && m.replyTo?.id === posted.id && m.content.startsWith('You said')),
        { timeoutMs: 20_000, what: 'the reply from the configured service' },
      );
      feed.close();
      expect(service.requests.some((r) => r.path.startsWith('/proxy/v1/messages'))).toBe(true);
      expect((await genbot.stop()).code).toBe(0);
      expect(genbot.stdout() + genbot.stderr()).not.toContain(apiKey);
    } finally {
      await service.close();
    }
  });
});

describe('genbot start, slack and discord with missing settings', () => {
  it('genbot start with SLACK_BOT_TOKEN but neither signing secret nor app token: exit 2, one line naming the variable', async () => {
    const token = 'xoxb-123-456-do-not-print-me';
    const genbot = track(spawnGenbot(['start'], { SLACK_BOT_TOKEN: token }));
    const { code } = await genbot.exited;
    expect(code).toBe(2);
    const lines = genbot.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^genbot: SLACK_SIGNING_SECRET is required/);
    expect(genbot.stdout()).toBe('');
    expect(genbot.stderr()).not.toContain(token);
  });

  it('genbot slack without SLACK_BOT_TOKEN: exit 2, one line', async () => {
    const genbot = track(spawnGenbot(['slack']));
    const { code } = await genbot.exited;
    expect(code).toBe(2);
    expect(genbot.stderr().trim().split('\n')).toEqual([expect.stringMatching(/^genbot: SLACK_BOT_TOKEN is required/)]);
  });

  it('genbot discord without DISCORD_TOKEN: exit 2, one line', async () => {
    const genbot = track(spawnGenbot(['discord']));
    const { code } = await genbot.exited;
    expect(code).toBe(2);
    expect(genbot.stderr().trim().split('\n')).toEqual([expect.stringMatching(/^genbot: DISCORD_TOKEN is required/)]);
  });

  it('genbot discord register without DISCORD_APPLICATION_ID: exit 2, one line', async () => {
    const genbot = track(
      spawnGenbot(['discord', 'register', '--guild', '123456789012345678'], { DISCORD_TOKEN: 'not-printed-token' }),
    );
    const { code } = await genbot.exited;
    expect(code).toBe(2);
    expect(genbot.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(/^genbot: DISCORD_APPLICATION_ID is required/),
    ]);
    expect(genbot.stderr()).not.toContain('not-printed-token');
  });

  it('an unknown argument is bad usage: exit 2', async () => {
    const genbot = track(spawnGenbot(['start', '--bogus']));
    const { code } = await genbot.exited;
    expect(code).toBe(2);
    expect(genbot.stderr()).toMatch(/^genbot: Unknown option '--bogus'/);
  });
});

describe('genbot start with both tokens: the real bots', () => {
  let slack: SlackFake | undefined;
  let discord: DiscordFake | undefined;
  afterEach(async () => {
    await slack?.close();
    await discord?.close();
  });

  it('runs both bots in one process, prints a summary without secrets, and stops cleanly on SIGINT', async () => {
    slack = await startSlackFake({ botToken: 'xoxb-summary-test-secret', signingSecret: 'signing-secret-not-printed' });
    discord = await startDiscordFake({ botToken: 'discord-token-not-printed' });
    const genbot = track(
      spawnGenbot(['start'], {
        SLACK_BOT_TOKEN: slack.identity.botToken,
        SLACK_SIGNING_SECRET: slack.identity.signingSecret,
        SLACK_API_URL: slack.apiUrl,
        SLACK_PORT: '0',
        DISCORD_TOKEN: discord.botToken,
        DISCORD_API_URL: discord.apiUrl,
        LOG_LEVEL: 'info',
      }),
    );
    await genbot.waitForLine(/^Models: /, 30_000);
    const out = genbot.stdout();
    expect(out).toMatch(/^Slack: HTTP mode, events, commands and interactivity at :\d+\/slack\/events$/m);
    expect(out).toMatch(
      /^Discord: gateway connected as user \d+; \/imagine not registered \(set DISCORD_APPLICATION_ID\)$/m,
    );
    expect(out).toMatch(/^Service: offline emulator/m);
    expect(out).not.toMatch(/Playground:/);

    genbot.child.kill('SIGINT');
    const { code, signal } = await genbot.exited;
    expect({ code, signal, stderr: genbot.stderr().slice(-3000) }).toMatchObject({ code: 0, signal: null });
    for (const secret of ['xoxb-summary-test-secret', 'signing-secret-not-printed', 'discord-token-not-printed']) {
      expect(genbot.stdout()).not.toContain(secret);
      expect(genbot.stderr()).not.toContain(secret);
    }
  });
});
