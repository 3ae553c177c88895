/** Permission bits (Discord's bitfield) granted to @everyone in the fake guild. */
const Permission = {
  AddReactions: 1n << 6n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  UseApplicationCommands: 1n << 31n,
  CreatePublicThreads: 1n << 35n,
  SendMessagesInThreads: 1n << 38n,
} as const;

/** Enough for a bot to read, reply, upload and thread everywhere: the fake checks no permissions. */
export const EVERYONE_PERMISSIONS = Object.values(Permission)
  .reduce((all, bit) => all | bit, 0n)
  .toString();

/**
 * Permissions a member may be given beyond @everyone's (by a role, in Discord), which
 * interactions carry in `member.permissions`: the ones apps read to tell a server's admins.
 */
export const MemberPermission = {
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
} as const;
export type MemberPermissionName = keyof typeof MemberPermission;

/**
 * Use External Apps: lets a member's own (user-installed) apps answer publicly in a server
 * that has not installed them; without it their answers are ephemeral.
 */
export const USE_EXTERNAL_APPS = 1n << 50n;

/**
 * An app's permissions where only its interactions reach (no bot in the server): what an
 * interaction response can use, as Discord computes them for apps without a bot user.
 */
export const INTERACTION_ONLY_PERMISSIONS = [Permission.EmbedLinks, Permission.AttachFiles, 1n << 17n, 1n << 18n]
  .reduce((all, bit) => all | bit, 0n)
  .toString();

/** Gateway intent bits the fake acts on. */
export const Intent = {
  Guilds: 1 << 0,
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

/** Application flags: GATEWAY_MESSAGE_CONTENT (privileged intent enabled for the app). */
export const APPLICATION_FLAG_MESSAGE_CONTENT = 1 << 18;
