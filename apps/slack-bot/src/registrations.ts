/**
 * What the bot answers, in the terms of Slack's app manifest: `manifest.yml`
 * must enable exactly this (manifest.test.ts holds them together).
 */
export const SLASH_COMMANDS: readonly string[] = ['/imagine', '/usage'];

/** Bolt listeners by event type. */
export const EVENT_TYPES: readonly string[] = ['app_mention', 'message'];

/**
 * The event subscriptions behind them: mentions; the messages of public and
 * private channels (deletions, the thread cache); and of the person's DM with
 * the bot, each one a turn. No group DMs: nothing answers them.
 */
export const BOT_EVENTS: readonly string[] = ['app_mention', 'message.channels', 'message.groups', 'message.im'];

/** Every bot scope, with what needs it. */
export const BOT_SCOPES: Readonly<Record<string, string>> = {
  'app_mentions:read': 'the app_mention event',
  'chat:write': 'chat.postMessage, chat.update, chat.delete, chat.startStream/appendStream/stopStream',
  commands: '/imagine, /usage',
  'files:read': 'url_private downloads, files.info',
  'files:write': 'files.getUploadURLExternal, files.completeUploadExternal',
  'channels:history': 'message.channels, conversations.replies in public channels',
  'groups:history': 'message.groups, conversations.replies in private channels',
  // Posting in a DM the person opened takes chat:write alone: no im:write (conversations.open), no
  // im:read (conversations.info, .list), since a DM's ID says what it is.
  'im:history': 'message.im, conversations.replies in direct messages',
  'users:read': 'users.info',
};

/** Interactivity: the buttons under results and the edit form (registered with the jobs floor). */
export const INTERACTIVITY = true;
