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
