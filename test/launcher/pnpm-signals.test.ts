/**
 * What a process manager (or `docker stop`) does to the process it started: a signal to that
 * process alone. `pnpm start` starts the script's shell, and a shell that runs the command as its
 * child takes the signal itself and leaves the bot running; the root scripts say `exec genbot …`,
 * so the shell becomes the bot and pnpm's own forwarding reaches it. These tests hold both halves.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDiscordFake, startSlackFake } from '@genbot/fakes';
import type { PlaygroundSnapshot } from '@genbot/playground';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '@genbot/test-servers/genbot';
import { followFeed, repliesComplete, startSlowReplies } from './genbot-process.js';
import { groupAlive, killGroup, spawnPnpm, type PnpmProcess } from './pnpm-process.js';
import { eventually } from '@genbot/test-servers';

const started: PnpmProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const pnpm of started.splice(0)) killGroup(pnpm.group);
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function run(args: readonly string[], env: Record<string, string> = {}, cwd?: string): PnpmProcess {
  const pnpm = spawnPnpm(args, env, cwd === undefined ? {} : { cwd });
  started.push(pnpm);
  return pnpm;
}

/** Everything pnpm and the bot printed. */
function output(pnpm: PnpmProcess): string {
  return pnpm.stdout() + pnpm.stderr();
}

describe('pnpm start, slack and discord stopped by a signal to pnpm alone', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'pnpm start: %s reaches the bot, which lets the replies in flight finish and exits 0; nothing left, no ELIFECYCLE',
    async (signal) => {
      const pnpm = run(['start'], { PLAYGROUND_PORT: '0' });
      const url = (await pnpm.waitForLine(/^Playground: (http:\/\/\S+)$/, 60_000))[1] ?? '';
      const feed = followFeed<PlaygroundSnapshot>(url);
      const replies = await startSlowReplies(url, feed);

      process.kill(pnpm.group, signal);
      const exit = await pnpm.exited;
      expect({ ...exit, output: output(pnpm).slice(-2000) }).toMatchObject({ code: 0, signal: null });
      await feed.ended.catch(() => undefined);
      expect(pnpm.stderr()).toContain(`genbot: ${signal} received, finishing replies in progress`);
      expect(repliesComplete(replies, feed.latest())).toBe(true);
      expect(output(pnpm)).not.toMatch(/ELIFECYCLE|ERR_PNPM/);
      await eventually(() => !groupAlive(pnpm.group), { timeoutMs: 5_000, what: 'every process pnpm started to end' });
    },
  );

  it('pnpm slack: SIGTERM stops the Slack bot, exit 0, nothing left', async () => {
    const slack = await startSlackFake({ botToken: 'xoxb-pnpm-signal-test', signingSecret: 'pnpm-signal-secret' });
    cleanups.push(() => slack.close());
    const pnpm = run(['slack'], {
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_SIGNING_SECRET: slack.identity.signingSecret,
      SLACK_API_URL: slack.apiUrl,
      SLACK_PORT: '0',
    });
    await pnpm.waitForLine(/^Models: /, 60_000);
    process.kill(pnpm.group, 'SIGTERM');
    expect(await pnpm.exited).toEqual({ code: 0, signal: null });
    expect(pnpm.stderr()).toContain('genbot: SIGTERM received');
    expect(output(pnpm)).not.toMatch(/ELIFECYCLE|ERR_PNPM/);
    await eventually(() => !groupAlive(pnpm.group), { timeoutMs: 5_000, what: 'every process pnpm started to end' });
  });

  it('pnpm discord: SIGTERM stops the Discord bot, exit 0, nothing left', async () => {
    const discord = await startDiscordFake({ botToken: 'pnpm-signal-discord-token' });
    cleanups.push(() => discord.close());
    const pnpm = run(['discord'], { DISCORD_TOKEN: discord.botToken, DISCORD_API_URL: discord.apiUrl });
    await pnpm.waitForLine(/^Models: /, 60_000);
    process.kill(pnpm.group, 'SIGTERM');
    expect(await pnpm.exited).toEqual({ code: 0, signal: null });
    expect(pnpm.stderr()).toContain('genbot: SIGTERM received');
    expect(output(pnpm)).not.toMatch(/ELIFECYCLE|ERR_PNPM/);
    await eventually(() => !groupAlive(pnpm.group), { timeoutMs: 5_000, what: 'every process pnpm started to end' });
  });
});

describe('why the scripts say exec', () => {
  it('a script that runs the bot as a child of its shell: pnpm exits with ELIFECYCLE and leaves the bot running', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'genbot-no-exec-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const scripts = { start: `node ${JSON.stringify(BIN)} start` };
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'no-exec', private: true, scripts }));
    const pnpm = run(['start'], { PLAYGROUND_PORT: '0' }, dir);
    await pnpm.waitForLine(/^Playground: /, 60_000);

    process.kill(pnpm.group, 'SIGTERM');
    const exit = await pnpm.exited;
    expect(exit.code).not.toBe(0);
    expect(output(pnpm)).toMatch(/ELIFECYCLE/);
    // The shell took the signal and died; the bot never heard of it.
    expect(pnpm.stderr()).not.toContain('SIGTERM received');
    expect(groupAlive(pnpm.group)).toBe(true);
  });
});
