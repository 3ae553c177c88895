import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { startDiscordFake, type DiscordFake } from '@genbot/fakes';
import {
  eventually,
  findRedisServer,
  installedOrSkipped,
  REDIS_INSTALL_HINT,
  type RedisServer,
  startRedis,
} from '@genbot/test-servers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const installed = installedOrSkipped({
  name: 'Redis',
  found: findRedisServer() !== undefined,
  install: REDIS_INSTALL_HINT,
});

/**
 * A small global limit, so a burst meets it within a test's time; bursts long enough (five seconds
 * over the limit alone) that processes holding only themselves to it meet it several times even
 * when a loaded machine slows them down.
 */
const PER_SECOND = 10;
const REQUESTS_EACH = 50;

let redis: RedisServer;
let fake: DiscordFake | undefined;
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await fake?.close();
  fake = undefined;
});

interface Burst {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
}

function startBurst(discord: DiscordFake, redisUrl: string | undefined): Burst {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('./support/rest-burst-child.ts', import.meta.url).pathname,
      discord.apiUrl,
      discord.botToken,
      String(REQUESTS_EACH),
      String(PER_SECOND),
      ...(redisUrl === undefined ? [] : [redisUrl]),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

/** Two processes of one bot burst at once; the global 429s the fake answered. */
async function twoProcessBurst(redisUrl: string | undefined): Promise<number> {
  fake = await startDiscordFake();
  const discord = fake;
  discord.globalRateLimit({ limit: PER_SECOND, windowMs: 1000 });
  const bursts = [startBurst(discord, redisUrl), startBurst(discord, redisUrl)];
  for (const burst of bursts) {
    await eventually(() => burst.output().includes('ready'), { timeoutMs: 30_000, what: burst.output });
  }
  for (const burst of bursts) burst.child.stdin.write('go\n');
  for (const burst of bursts) {
    await eventually(() => burst.output().includes(`done ${REQUESTS_EACH}`), { timeoutMs: 30_000, what: burst.output });
  }
  return discord.state.rateLimitHits.filter((hit) => hit.route === 'global').length;
}

describe.runIf(installed)("Discord's global REST limit shared by a bot's processes through Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('two processes bursting together stay within one budget, where each alone meets the limit', async () => {
    const started = Date.now();
    const shared = await twoProcessBurst(redis.url);
    // 100 requests at 10 a second between them: the budget was shared, not doubled.
    expect(Date.now() - started).toBeGreaterThanOrEqual(((2 * REQUESTS_EACH - PER_SECOND) / PER_SECOND) * 1000);
    await fake?.close();
    fake = undefined;
    const alone = await twoProcessBurst(undefined);
    // Each holding only itself to the limit, as discord.js alone does, they meet it again and again.
    expect(alone).toBeGreaterThanOrEqual(4);
    // Shared, none as a rule; a process stalled for longer than the slots' margin (a loaded machine)
    // may send two requests close together and meet one, which discord.js then waits out.
    expect(shared).toBeLessThanOrEqual(1);
  }, 90_000);
});
