import { type Env, envInteger, envString } from '@genbot/core/config';
import { ConfigError } from '@genbot/core/errors';

/** The gateway shards one process runs: `ids` of `count` in all, over every process of the bot. */
export interface ShardPlan {
  readonly count: number;
  readonly ids: readonly number[];
}

/** Discord caps a bot's shards far below this; past it, a value is a typo. */
const MAX_SHARDS = 65_536;

/**
 * DISCORD_SHARD_COUNT and DISCORD_SHARD_IDS. Unset count: undefined, and the
 * client starts as many shards as `GET /gateway/bot` recommends, all of them
 * here. Ids without a count are refused: which guilds a shard gets depends on
 * the total, so every process must be told the same one.
 */
export function parseShardPlan(env: Env): ShardPlan | undefined {
  const ids = envString(env, 'DISCORD_SHARD_IDS');
  if (envString(env, 'DISCORD_SHARD_COUNT') === undefined) {
    if (ids !== undefined) {
      throw new ConfigError(
        'DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT: the total number of shards over all processes.',
        { variable: 'DISCORD_SHARD_IDS' },
      );
    }
    return undefined;
  }
  const count = envInteger(env, 'DISCORD_SHARD_COUNT', {
    fallback: 1,
    min: 1,
    max: MAX_SHARDS,
    what: 'a number of shards',
  });
  return { count, ids: ids === undefined ? range(0, count - 1) : parseShardIds(ids, count) };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

function badIds(problem: string): ConfigError {
  return new ConfigError(`DISCORD_SHARD_IDS ${problem}`, { variable: 'DISCORD_SHARD_IDS' });
}

/** `0,1`, `0-3` or a mix (`0-3,8`): each id once, each below the count. */
function parseShardIds(value: string, count: number): number[] {
  const ids: number[] = [];
  for (const part of value.split(',').map((piece) => piece.trim())) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (match === null) throw badIds('must list shard ids like 0,1 or 0-3.');
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from) throw badIds(`has a range that runs backwards (${part}).`);
    if (to >= count) {
      throw badIds(`names shard ${to}, but DISCORD_SHARD_COUNT is ${count} (ids run from 0 to ${count - 1}).`);
    }
    ids.push(...range(from, to));
  }
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) throw badIds(`names shard ${repeated} more than once.`);
  return ids.sort((a, b) => a - b);
}
