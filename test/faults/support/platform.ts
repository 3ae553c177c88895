import type { Emulator } from '@genbot/emulator';
import type { OperatorSettings, SettingLevel, SettingName } from '@genbot/core/settings';
import type { JsonValue } from '@genbot/core/store';

export type PlatformName = 'slack' | 'discord';

export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

/** One message of the bot that carries files: its text is the comment shown with them. */
export interface Upload {
  comment: string;
  files: UploadedFile[];
}

/** What a user sees from the bot in one channel: its text messages (current text, oldest first) and its uploads. */
export interface View {
  texts: string[];
  uploads: Upload[];
}

export interface UserAttachment {
  name: string;
  bytes: Uint8Array;
  contentType?: string;
}

export type PlatformFault = 'post' | 'edit' | 'upload';

/** A user's message, as a handle to go on with its conversation. */
export interface Said {
  /** Slack: the thread's parent ts; Discord: the message's id (the next one replies to it). */
  readonly ref: string;
}

export interface UserMessage {
  text: string;
  attachments?: readonly UserAttachment[];
  /** It mentions the bot, which then answers it. */
  mentionsBot?: boolean;
  /** It goes on with that message's conversation: on Slack in its thread, on Discord as a reply to it. */
  after?: Said;
}

/** The daily quotas of a bot started for one row. */
export interface BotQuota {
  imagesPerDay?: number;
}

/**
 * Who runs `/genbot`: a member with no rights over settings; a channel admin (Discord's Manage
 * Channels: this channel's settings, not the server's; Slack has no such person); an admin (a Slack
 * workspace admin, Discord's Manage Server: every setting).
 */
export type Rights = 'member' | 'channel admin' | 'admin';

/** `/genbot set` or `/genbot reset` (Slack: the text after `/genbot`; Discord: the subcommand and its options). */
export interface GenbotRequest {
  action: 'set' | 'reset';
  /** Any text: the platform's client may refuse a name it does not offer (see `offeredSettingNames`). */
  name: string;
  /** For `set`. */
  value?: string;
  /** For the workspace (Slack `--workspace`, Discord `scope: server`) rather than the channel. */
  workspace?: boolean;
}

/** A settings form open for a person in a channel. */
export interface SettingsForm {
  readonly channel: string;
  readonly as: Rights;
  /** Slack: the modal's view id; Discord: the interaction that opened the modal. */
  readonly ref: string;
}

/** Another bot of this platform whose worker takes no job until `startWorker()`: its jobs wait in the queue. */
export interface IdleBot {
  platform: Platform;
  startWorker(): Promise<void>;
}

/**
 * One platform, bot running, driven the same way for every row: a user
 * mentions the bot or runs /imagine in a channel of the row's own, and the
 * row reads back what the bot showed there.
 */
export interface Platform {
  readonly name: PlatformName;
  /**
   * Whether /imagine's progress message gives way to its result, so the job
   * leaves no text of its own beside the images (Slack deletes it; Discord's
   * result takes its place in the deferred answer). A mention's images come
   * from the model's tools, and its reply says what was made.
   */
  readonly resultStandsAlone: Readonly<Record<'imagine', boolean>>;
  /** The emulator the bot talks to: its requests show what reached the service. */
  readonly emulator: Emulator;
  /** CHAT_MODELS, IMAGE_MODELS and BUDGET_* the bot was started with, as the launcher reads them. */
  readonly operator: OperatorSettings;
  /** Model IDs the bot was given. */
  readonly chatModel: string;
  readonly imageModel: string;
  /** A channel no other row uses; `index` is the row's position. */
  channel(index: number): string;
  /** A user mentions the bot; `text` is what follows the mention. */
  mention(channel: string, text: string, attachment?: UserAttachment): Promise<void>;
  /** A user's message, mentioning the bot or not, in a conversation of its own or going on with one. */
  say(channel: string, message: UserMessage): Promise<Said>;
  /** A user runs /imagine (Slack: `--ar` in the text; Discord: the `aspect_ratio` option). */
  imagine(channel: string, prompt: string, aspectRatio?: string): Promise<void>;
  view(channel: string): View;
  /** The texts of `view` that everyone in the channel sees (not the ones shown to the user alone). */
  publicTexts(channel: string): string[];
  /** How many of the user's messages in the channel the bot marked with a reaction instead of an answer. */
  reactionMarks(channel: string): number;
  /** Every version of every text the bot posted in the channel, edits and private answers included. */
  allVersions(channel: string): string[];
  /** How many calls the platform has refused with 429 so far. */
  rateLimitHitCount(): number;
  /** A platform 429 on the bot's next call of that kind; call the result to switch it off. */
  rateLimitNext(kind: PlatformFault): () => void;
  /** The platform's per-channel limits on new messages and edits, enforced in every channel until switched off. */
  enforceChannelLimits(): () => void;
  /** The file host refuses the bot's next `times` uploads (every one when omitted). */
  failUploads(times?: number): () => void;
  /** Attachment downloads answer `status` (the next `times`, or until switched off). */
  failDownloads(status: 403 | 404, times?: number): () => void;
  /** Attachment downloads answer a redirect to `location` until switched off. */
  redirectDownloads(location: string): () => void;
  /** Names the first secret found in the bot's logs or in anything it posted; undefined when clean. */
  leakedSecret(): string | undefined;
  /**
   * Another bot of this platform, on fakes and an emulator of its own, with these daily quotas (the
   * suite's bots have none, and one user's rows would use them up): for a row that needs them; it
   * has one channel, `channel(0)`. The row stops it.
   */
  withQuota(quota: BotQuota): Promise<Platform>;
  /**
   * Sets (or, with `value` undefined, resets) a setting of the channel's, or its workspace's, as an
   * admin's `/genbot` records it: the bot reads it at its next request there.
   */
  changeSetting(channel: string, level: SettingLevel, name: SettingName, value: JsonValue | undefined): Promise<void>;
  /**
   * `/genbot set|reset …` run in the channel by a person with these rights (default: a member): the
   * private answer. Slack has no channel admin: asked for one, it throws.
   */
  genbot(channel: string, request: GenbotRequest, as?: Rights): Promise<string>;
  /** The setting names the platform's own client offers for `/genbot set` (Discord's choices); undefined where any text goes. */
  offeredSettingNames(): readonly string[] | undefined;
  /** Opens the channel's settings form as a person with these rights (Discord: its chat part). */
  openSettingsForm(channel: string, as: Rights): Promise<SettingsForm>;
  /**
   * Submits the form with these fields filled in (by field name: `system_prompt`, `enabled`, …),
   * the rest as the form shows them; the private answer (Slack: its message to the person, or the
   * text of the form it updated or the errors it kept the form open with). `forgedChannel`: sent as a tampered client would, naming that
   * channel instead of the form's (Slack: its `private_metadata`; Discord: its `custom_id`).
   * A form already answered is sent again as each platform allows it: Slack takes the same view
   * twice (a double click); Discord's client closes a modal once answered, so its second
   * submission is the form opened again and filled the same.
   */
  submitSettingsForm(
    form: SettingsForm,
    values: Readonly<Record<string, string>>,
    forgedChannel?: string,
  ): Promise<string>;
  /** How many setting changes the store holds for the channel and its workspace. */
  settingChanges(channel: string): Promise<number>;
  /** Another bot of this platform (as `withQuota`, no quotas) whose jobs wait until its worker starts. The row stops it. */
  withIdleWorker(): Promise<IdleBot>;
  stop(): Promise<void>;
}

/**
 * What the suite's bots run with: a second model of each kind to choose from, and an image budget
 * no row reaches (a budget row lowers its own workspace's).
 */
export function faultOperator(chatModel: string, imageModel: string): OperatorSettings {
  return {
    chatModels: [chatModel, `${chatModel}-large`],
    imageModels: [imageModel, `${imageModel}-2`],
    chatModel,
    imageModel,
    systemPrompt: undefined,
    budgetImagesPerDay: 10_000,
    budgetChatTokensPerDay: undefined,
  };
}
