/** `[shard_id, num_shards]`, as IDENTIFY and READY carry it. */
export type ShardInfo = readonly [id: number, count: number];

/** The shard a guild's events go to: `(guild_id >> 22) % num_shards`, Discord's rule. DMs go to shard 0. */
export function shardOf(guildId: string | null, count: number): number {
  if (guildId === null) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

export function onShard(guildId: string | null, shard: ShardInfo): boolean {
  return shardOf(guildId, shard[1]) === shard[0];
}
