import type { Client, Guild } from 'discord.js';

/** Looks up the names mention markup refers to; undefined when Discord did not say. */
export interface MentionNames {
  user(id: string): string | undefined;
  role(id: string): string | undefined;
  channel(id: string): string | undefined;
}

const USER = /<@!?(\d+)>/g;
const ROLE = /<@&(\d+)>/g;
const CHANNEL = /<#(\d+)>/g;

/**
 * Message content as core wants it: the bot's own mention removed (it only
 * addresses the bot), other users, roles and channels as `@name` / `#name`,
 * so the model never sees raw snowflakes.
 */
export function plainText(content: string, selfId: string, names: MentionNames): string {
  return content
    .replace(USER, (_, id: string) => (id === selfId ? '' : `@${names.user(id) ?? 'unknown-user'}`))
    .replace(ROLE, (_, id: string) => `@${names.role(id) ?? 'unknown-role'}`)
    .replace(CHANNEL, (_, id: string) => `#${names.channel(id) ?? 'unknown-channel'}`)
    .trim();
}

/** Names from discord.js's caches: for text Discord resolved no mentions for (slash-command options). */
export function cachedNames(client: Client, guild: Guild | null): MentionNames {
  return {
    user: (id) => guild?.members.cache.get(id)?.displayName ?? client.users.cache.get(id)?.displayName,
    role: (id) => guild?.roles.cache.get(id)?.name,
    channel: (id) => {
      const channel = client.channels.cache.get(id);
      return channel !== undefined && 'name' in channel && channel.name !== null ? channel.name : undefined;
    },
  };
}

/**
 * Fetches the members mentioned in `text` that the cache does not hold yet, so
 * `cachedNames` can name them. Slash-command options come with no resolved
 * mentions; a failed lookup just leaves that name unknown.
 */
export async function cacheMentionedMembers(text: string, guild: Guild | null): Promise<void> {
  if (guild === null) return;
  const missing = [...text.matchAll(USER)].flatMap(([, id]) =>
    id === undefined || guild.members.cache.has(id) ? [] : [id],
  );
  await Promise.allSettled([...new Set(missing)].map((id) => guild.members.fetch(id)));
}
