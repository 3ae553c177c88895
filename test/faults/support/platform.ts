import type { Emulator } from '@genbot/emulator';

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

/**
 * One platform, bot running, driven the same way for every row: a user
 * mentions the bot or runs /imagine in a channel of the row's own, and the
 * row reads back what the bot showed there.
 */
export interface Platform {
  readonly name: PlatformName;
  /**
   * Whether a finished image job's progress message gives way to its result,
   * so the job leaves no text of its own beside the images, for /imagine and
   * for a mention's edit (Slack deletes it; Discord's /imagine result takes
   * its place in the deferred answer, while a mention's edit keeps its done line).
   */
  readonly resultStandsAlone: Readonly<Record<'imagine' | 'mention', boolean>>;
  /** The emulator the bot talks to: its requests show what reached the service. */
  readonly emulator: Emulator;
  /** Model IDs the bot was given. */
  readonly chatModel: string;
  readonly imageModel: string;
  /** A channel no other row uses; `index` is the row's position. */
  channel(index: number): string;
  /** A user mentions the bot; `text` is what follows the mention. */
  mention(channel: string, text: string, attachment?: UserAttachment): Promise<void>;
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
  stop(): Promise<void>;
}
