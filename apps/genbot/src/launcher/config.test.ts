import { ConfigError } from '@genbot/core/errors';
import { describe, expect, it } from 'vitest';
import type { LaunchCommand } from './args.js';
import { parseLaunchConfig } from './config.js';

const start: LaunchCommand = { kind: 'start' };
const slackAlone: LaunchCommand = { kind: 'slack' };
const discordAlone: LaunchCommand = { kind: 'discord' };
const register: LaunchCommand = { kind: 'discord-register', guildId: '123456789012345678' };
const worker: LaunchCommand = { kind: 'worker' };
const SHARED = { REDIS_URL: 'redis://:r3d1s-pw@redis:6379', DATABASE_URL: 'postgres://genbot:pw@db/genbot' };

function failure(command: LaunchCommand, env: Record<string, string>): ConfigError {
  try {
    parseLaunchConfig(command, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('parseLaunchConfig', () => {
  it('start with no bot token: the playground, on PLAYGROUND_PORT, following SLACK_STREAMING', () => {
    expect(parseLaunchConfig(start, {}).plan).toEqual({ kind: 'playground', port: 8787, slackStreaming: 'edit' });
    expect(parseLaunchConfig(start, { PLAYGROUND_PORT: '0', SLACK_STREAMING: 'native' }).plan).toEqual({
      kind: 'playground',
      port: 0,
      slackStreaming: 'native',
    });
  });

  it('start runs the bots whose tokens are set, and redacts every secret', () => {
    const config = parseLaunchConfig(start, {
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1',
      DISCORD_TOKEN: 'd-1',
      GENAI_BASE_URL: 'https://gw.example.com',
      GENAI_API_KEY: 'k-1',
    });
    expect(config.plan).toMatchObject({ kind: 'bots', slack: { botToken: 'xoxb-1' }, discord: { token: 'd-1' } });
    expect(config.secrets.sort()).toEqual(['d-1', 'k-1', 'xapp-1', 'xoxb-1']);
    expect(parseLaunchConfig(start, { DISCORD_TOKEN: 'd-1' }).plan).toMatchObject({ kind: 'bots', slack: undefined });
  });

  it('start and worker run Slack from SLACK_CLIENT_ID alone, installed into many workspaces', () => {
    const installs = {
      SLACK_CLIENT_ID: '1.2',
      SLACK_CLIENT_SECRET: 'cs-1',
      SLACK_STATE_SECRET: 'ss-1',
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      SLACK_SIGNING_SECRET: 'sg-1',
    };
    const config = parseLaunchConfig(start, installs);
    expect(config.plan).toMatchObject({ kind: 'bots', slack: { installs: { clientId: '1.2' } } });
    expect(config.secrets).toEqual(expect.arrayContaining(['cs-1', 'ss-1', installs.SECRETS_KEY, 'sg-1']));
    expect(parseLaunchConfig(worker, { ...SHARED, ...installs }).plan).toMatchObject({
      kind: 'worker',
      slack: { installs: { clientId: '1.2' } },
    });
    const both = failure(slackAlone, { ...installs, SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(both.message).toMatch(/^SLACK_BOT_TOKEN and SLACK_CLIENT_ID are both set/);
  });

  it('a single bot reads nothing of the other platform', () => {
    expect(
      parseLaunchConfig(slackAlone, { SLACK_BOT_TOKEN: 'x', SLACK_APP_TOKEN: 'a', DISCORD_API_URL: 'ftp://x' }).plan,
    ).toMatchObject({ kind: 'bots', discord: undefined });
    expect(
      parseLaunchConfig(discordAlone, { DISCORD_TOKEN: 'd', SLACK_BOT_TOKEN: 'x', SLACK_PORT: 'x' }).plan,
    ).toMatchObject({
      kind: 'bots',
      slack: undefined,
    });
  });

  it.each([
    [start, { PLAYGROUND_PORT: 'eighty' }, 'PLAYGROUND_PORT', /^PLAYGROUND_PORT must be a port number/],
    [start, { SLACK_BOT_TOKEN: 'x' }, 'SLACK_SIGNING_SECRET', /^SLACK_SIGNING_SECRET is required in HTTP mode/],
    [start, { DISCORD_API_URL: 'ftp://x' }, 'DISCORD_API_URL', /^DISCORD_API_URL /],
    [
      slackAlone,
      {},
      'SLACK_BOT_TOKEN',
      /^SLACK_BOT_TOKEN is required to run the Slack bot \(set it, or run "pnpm start"/,
    ],
    [
      discordAlone,
      {},
      'DISCORD_TOKEN',
      /^DISCORD_TOKEN is required to run the Discord bot \(set it, or run "pnpm start"/,
    ],
    [register, { DISCORD_APPLICATION_ID: '1' }, 'DISCORD_TOKEN', /^DISCORD_TOKEN is required to register commands\.$/],
    [register, { DISCORD_TOKEN: 'd' }, 'DISCORD_APPLICATION_ID', /^DISCORD_APPLICATION_ID is required to register/],
    [slackAlone, { SLACK_BOT_TOKEN: 'x', SLACK_APP_TOKEN: 'a', LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /^LOG_LEVEL /],
    [worker, { SLACK_BOT_TOKEN: 'x' }, 'REDIS_URL', /^REDIS_URL is required to run job workers/],
    [worker, { REDIS_URL: 'localhost:6379' }, 'REDIS_URL', /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL\.$/],
    [
      worker,
      { REDIS_URL: 'redis://r', SLACK_BOT_TOKEN: 'x' },
      'DATABASE_URL',
      /^REDIS_URL is set, so DATABASE_URL must name a PostgreSQL database/,
    ],
    [
      slackAlone,
      { REDIS_URL: 'redis://r', DATABASE_URL: 'sqlite:/tmp/x.db', SLACK_BOT_TOKEN: 'x', SLACK_APP_TOKEN: 'a' },
      'DATABASE_URL',
      /^REDIS_URL is set, so DATABASE_URL must name a PostgreSQL database \(postgres:\/\/… or postgresql:\/\/…\)/,
    ],
    [worker, SHARED, 'SLACK_BOT_TOKEN', /^SLACK_BOT_TOKEN is required or DISCORD_TOKEN for a worker/],
    [worker, { ...SHARED, DISCORD_TOKEN: 'd', JOB_LOCK_MS: '10' }, 'JOB_LOCK_MS', /^JOB_LOCK_MS must be milliseconds/],
  ])('%o with %o: names %s', (command, env, variable, message) => {
    const error = failure(command, env);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(message);
  });

  it('register takes the application and the guild', () => {
    expect(parseLaunchConfig(register, { DISCORD_TOKEN: 'd', DISCORD_APPLICATION_ID: '42' }).plan).toEqual({
      kind: 'register',
      discord: { token: 'd', applicationId: '42', apiUrl: 'https://discord.com/api' },
      guildId: '123456789012345678',
    });
  });

  it('worker: the platforms whose tokens are set, no signing secret needed, and its tuning', () => {
    const config = parseLaunchConfig(worker, {
      ...SHARED,
      SLACK_BOT_TOKEN: 'xoxb-w',
      WORKER_IMAGE_CONCURRENCY: '2',
      IMAGE_JOBS_PER_MINUTE: '30',
    });
    expect(config.plan).toEqual({
      kind: 'worker',
      slack: { botToken: 'xoxb-w', apiUrl: 'https://slack.com/api/', streaming: 'edit' },
      discord: undefined,
      shared: { redisUrl: SHARED.REDIS_URL, databaseUrl: SHARED.DATABASE_URL },
      tuning: { concurrency: { image: 2, stream: 16 }, perMinute: { image: 30 }, lockMs: 30_000 },
    });
    expect(config.secrets).toContain('r3d1s-pw');
    expect(config.secrets).toContain('xoxb-w');
  });

  it('bots with REDIS_URL share it, and without it run their jobs themselves', () => {
    const env = { SLACK_BOT_TOKEN: 'x', SLACK_APP_TOKEN: 'a' };
    expect(parseLaunchConfig(slackAlone, { ...env, ...SHARED }).shared).toEqual({
      redisUrl: SHARED.REDIS_URL,
      databaseUrl: SHARED.DATABASE_URL,
    });
    expect(parseLaunchConfig(slackAlone, env).shared).toBeUndefined();
  });
});
