import { ConfigError } from '@genbot/core/errors';
import { describe, expect, it } from 'vitest';
import { parseDiscordEnv } from './config.js';
import { parseShardPlan } from './shard-config.js';

describe('DISCORD_SHARD_COUNT and DISCORD_SHARD_IDS', () => {
  it('leave the count to Discord when unset', () => {
    expect(parseShardPlan({})).toBeUndefined();
    expect(parseDiscordEnv({ DISCORD_TOKEN: 'd-1' }).bot?.shards).toBeUndefined();
  });

  it('run every shard of the count in this process when only the count is set', () => {
    expect(parseShardPlan({ DISCORD_SHARD_COUNT: '3' })).toEqual({ count: 3, ids: [0, 1, 2] });
  });

  it.each([
    ['1', [1]],
    ['0,1', [0, 1]],
    ['0-3', [0, 1, 2, 3]],
    ['4-5, 0 ,2', [0, 2, 4, 5]],
    ['7-7', [7]],
  ])('read %s as the listed ids, in order', (ids, expected) => {
    expect(parseShardPlan({ DISCORD_SHARD_COUNT: '8', DISCORD_SHARD_IDS: ids })).toEqual({ count: 8, ids: expected });
  });

  it('reach the bot config', () => {
    expect(
      parseDiscordEnv({ DISCORD_TOKEN: 'd-1', DISCORD_SHARD_COUNT: '2', DISCORD_SHARD_IDS: '1' }).bot?.shards,
    ).toEqual({ count: 2, ids: [1] });
  });

  it.each([
    [{ DISCORD_SHARD_COUNT: '0' }, /^DISCORD_SHARD_COUNT must be a number of shards \(1-65536\)\.$/],
    [{ DISCORD_SHARD_COUNT: 'two' }, /^DISCORD_SHARD_COUNT must be a number of shards/],
    [{ DISCORD_SHARD_COUNT: '-1' }, /^DISCORD_SHARD_COUNT must be a number of shards/],
    [{ DISCORD_SHARD_IDS: '0' }, /^DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT: the total number of shards/],
    [
      { DISCORD_SHARD_COUNT: '2', DISCORD_SHARD_IDS: '2' },
      /^DISCORD_SHARD_IDS names shard 2, but DISCORD_SHARD_COUNT is 2 \(ids run from 0 to 1\)\.$/,
    ],
    [
      { DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '1-5' },
      /^DISCORD_SHARD_IDS names shard 5, but DISCORD_SHARD_COUNT is 4/,
    ],
    [
      { DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '3-1' },
      /^DISCORD_SHARD_IDS has a range that runs backwards \(3-1\)\.$/,
    ],
    [{ DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '0-2,1' }, /^DISCORD_SHARD_IDS names shard 1 more than once\.$/],
    [
      { DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '0;1' },
      /^DISCORD_SHARD_IDS must list shard ids like 0,1 or 0-3\.$/,
    ],
    [{ DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '0,,1' }, /^DISCORD_SHARD_IDS must list shard ids/],
    [{ DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '-1' }, /^DISCORD_SHARD_IDS must list shard ids/],
  ])('refuse %o with a message naming the variable', (env, message) => {
    expect(() => parseShardPlan(env)).toThrow(ConfigError);
    expect(() => parseShardPlan(env)).toThrow(message);
    // Checked whether or not a bot is configured, as every DISCORD_ variable is.
    expect(() => parseDiscordEnv(env)).toThrow(message);
  });
});
