/** Discord's epoch (2015-01-01T00:00:00Z): snowflakes count milliseconds from here. */
const DISCORD_EPOCH = 1420070400000n;

export type SnowflakeGenerator = () => string;

/**
 * Snowflakes shaped like Discord's (timestamp << 22 | worker | increment) so that
 * discord.js can derive `createdAt` from them and ordering by ID equals ordering by time.
 */
export function createSnowflakeGenerator(now: () => number = Date.now): SnowflakeGenerator {
  let lastMs = 0n;
  let increment = 0n;
  return () => {
    let ms = BigInt(now()) - DISCORD_EPOCH;
    if (ms <= lastMs) {
      // Several IDs in one millisecond (or a clock step back): keep IDs strictly increasing.
      ms = lastMs;
      increment += 1n;
      if (increment > 0xfffn) {
        ms += 1n;
        increment = 0n;
      }
    } else {
      increment = 0n;
    }
    lastMs = ms;
    return ((ms << 22n) | (1n << 17n) | increment).toString();
  };
}

export function snowflakeTimestamp(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}
