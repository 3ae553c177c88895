/**
 * What the bot answers, in the terms of Slack's app manifest: `manifest.yml`
 * must enable exactly this (manifest.test.ts holds them together).
 */
export const SLASH_COMMANDS: readonly string[] = ['/imagine', '/usage', '/genbot'];

/** Bolt listeners by event type. */
export const EVENT_TYPES: readonly string[] = [
  'app_mention',
  'message',
  'app_home_opened',
  'assistant_thread_started',
  'app_uninstalled',
  'tokens_revoked',
];

/**
 * The event subscriptions behind them: mentions; the messages of public and
 * private channels (deletions, the thread cache) and of the person's DM with
 * the bot, each one a turn (no group DMs: nothing answers them); the App Home
 * opened (the Home tab, and the agent view's Messages tab: suggested prompts)
 * and the older assistant view's threads; in many-workspace mode, the app
 * uninstalled and its bot token revoked (one bot token's deployment has
 * nothing to do for either). The context-change events
 * (`app_context_changed`, `assistant_thread_context_changed`) are left out:
 * nothing reads what a person is looking at.
 */
export const BOT_EVENTS: readonly string[] = [
  'app_mention',
  'message.channels',
  'message.groups',
  'message.im',
  'app_home_opened',
  'assistant_thread_started',
  'app_uninstalled',
  'tokens_revoked',
];

/** Every bot scope, with what needs it. */
export const BOT_SCOPES: Readonly<Record<string, string>> = {
  'app_mentions:read': 'the app_mention event',
  'chat:write':
    'chat.postMessage, chat.update, chat.delete, chat.startStream/appendStream/stopStream, assistant.threads.setStatus, agents.sessions.rename',
  'assistant:write': 'assistant.threads.setSuggestedPrompts, assistant.threads.setTitle',
  commands: '/imagine, /usage, /genbot',
  'files:read': 'url_private downloads, files.info',
  'files:write': 'files.getUploadURLExternal, files.completeUploadExternal',
  'channels:history': 'message.channels, conversations.replies in public channels',
  'groups:history': 'message.groups, conversations.replies in private channels',
  // Posting in a DM the person opened takes chat:write alone: no im:write (conversations.open), no
  // im:read (conversations.info, .list), since a DM's ID says what it is.
  'im:history': 'message.im, conversations.replies in direct messages',
  'users:read': "users.info: people's names, and whether they administer the workspace (/genbot)",
};

/** Interactivity: the buttons under results and the edit form (registered with the jobs floor), the feedback buttons, the settings form. */
export const INTERACTIVITY = true;

/** The App Home's Home tab, published on `app_home_opened` (views.publish answers `not_enabled` without it). */
export const HOME_TAB = true;

/**
 * The AI-app experience the manifest declares: the agent view
 * (`features.agent_view`, what every new app gets); the code answers the
 * older assistant view's events too, for an app still set up with it.
 */
export const AI_APP_VIEW = 'agent_view';
