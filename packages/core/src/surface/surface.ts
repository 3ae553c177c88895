import type { Platform } from './platform.js';

/**
 * The port each chat app implements (Slack with the Web API, Discord with
 * discord.js). Core talks only to this: plain data in, plain data out, no
 * platform type. A surface may be built per invocation (e.g. around a Discord
 * interaction token) since use cases never keep one.
 *
 * Text passed to `post`, `edit` and upload comments is standard Markdown
 * (what models write and what copy.ts says): both platforms take it as it is
 * for messages (Slack as `markdown_text`), and a surface converts only where
 * its platform requires another dialect (Slack's upload comments, mrkdwn).
 *
 * Errors: throw `RateLimitedError` for a platform rate limit; anything else
 * is treated as transient and retried a few times.
 */
export interface ChatSurface {
  /** Where this surface answers: a conversation tells the model which platform it is on. */
  readonly platform: Platform;
  readonly limits: SurfaceLimits;

  /** Posts a message into the channel, or into the thread when `target.threadId` is set. */
  post(target: ChatTarget, text: string): Promise<MessageRef>;

  /** Replaces a message's whole text. */
  edit(message: MessageRef, text: string): Promise<void>;

  /**
   * Optional: the rate limit a call to `where` counts against, when it is not
   * its channel's (Discord: an interaction's answers go through its webhook,
   * which the channel's message limit does not cover). Core's per-channel
   * budget gives each key its own turns; without this, or for calls it keys
   * by `where.channelId`, the channel's.
   */
  paceKey?(call: PacedCall, where: ChatTarget): string;

  /** Optional; core only uses it where a message became pointless. */
  delete?(message: MessageRef): Promise<void>;

  /**
   * Optional: a result uploaded here is a message of its own that shows what
   * it is (its text, its images, its buttons; Slack's file message, a Discord
   * channel message), so once
   * an image job showed every image, its progress message is deleted (or,
   * when that fails, left as a short line pointing at the result) instead of
   * ending as a done line beside it: a job leaves one message. A surface that
   * puts the result in the progress message's place (a Discord interaction's
   * answer) leaves this out.
   */
  readonly resultStandsAlone?: boolean;

  /**
   * Optional: a message in `target` that only `userId` sees (Slack
   * chat.postEphemeral). Core paces it in the channel's budget as its own
   * kind of call (`minPrivateIntervalMs`), apart from the public posts, and
   * uses it to tell someone where their request stands when the channel is
   * too busy to show it publicly soon.
   */
  postPrivate?(target: ChatTarget, userId: string, text: string): Promise<void>;

  /**
   * Uploads files as one message (at most `limits.maxFilesPerMessage`, each at
   * most `limits.maxUploadBytes`) with `comment` as its text. A surface that
   * learns the message and file ids returns them, so a job can record what it
   * posted (image versions, and no second upload when it runs again).
   * `buttons`, when given, go on that same message (Slack an actions block,
   * Discord an action row), in order. The files' bytes are lent for the call
   * only: once it settles, the job frees them, so a surface that keeps them
   * (to show them again, to assert on them) keeps a copy.
   */
  uploadFiles(
    target: ChatTarget,
    files: readonly UploadFile[],
    comment: string,
    buttons?: readonly ResultButton[],
    // biome-ignore lint/suspicious/noConfusingVoidType: a surface that learns no ids keeps returning Promise<void>.
  ): Promise<UploadReceipt | void>;

  /**
   * Optional: an image the bot posted earlier (an image version) as an
   * attachment `download` can fetch (Slack: by file id through files.info;
   * Discord: the message fetched again for fresh URLs). Without it, versions
   * cannot be varied, edited or shown again on this platform.
   */
  postedImage?(image: PostedImage): AttachmentRef;

  /**
   * The conversation `target` belongs to, oldest first: the thread's messages
   * (Slack conversations.replies; Discord the thread channel or the reply
   * chain), or only the message itself when it starts no thread.
   */
  readThread(target: ChatTarget, options?: { signal?: AbortSignal }): Promise<ThreadMessage[]>;

  /** Fetches an attachment's bytes (Slack: url_private with the bot token). */
  download(attachment: AttachmentRef, options?: { signal?: AbortSignal }): Promise<DownloadedFile>;

  /**
   * Optional visible "working" marker in `target` that lasts until the bot
   * next posts there or a few seconds pass (Discord typing indicator, Slack
   * assistant status). Core renews it while it waits. Without it, core shows a
   * placeholder message instead. Core aborts `signal` when the reply's first
   * message is ready to go: a marker still on its way is then dropped or left
   * to land as it may, and the call resolves at once, so a slow marker never
   * holds the reply back. `activity` is what the bot does meanwhile (a tool's
   * line, core's words), for a marker that can say it (`progressSaysActivity`).
   */
  showProgress?(target: ChatTarget, options?: { signal?: AbortSignal; activity?: string | undefined }): Promise<void>;

  /**
   * Optional, with `showProgress`: the marker says what the bot does (Slack's
   * assistant status in a DM: "is drawing…"), so before the reply's first
   * text core posts no message for an activity, as it does where the marker
   * can only say that the bot works (typing).
   */
  readonly progressSaysActivity?: boolean;

  /**
   * Optional, for platforms that cannot answer a person privately: marks
   * their message (Discord: a ⏳ reaction) as turned away again for the
   * reason they were just told, instead of saying it once more in public.
   */
  markTurnedAway?(message: MessageRef): Promise<void>;

  /**
   * Optional: the platform's own streaming for one reply (Slack
   * chat.startStream / appendStream / stopStream). Without it, or when it
   * answers undefined (a job run again over the message a stream left), core
   * streams by editing messages in place.
   */
  openStream?(target: ChatTarget, context: ReplyContext): ReplyStream | undefined;

  /**
   * Optional, with `openStream`: ends a platform stream a crashed run left
   * open, keeping its text, so the message can be edited again.
   */
  endStream?(message: MessageRef): Promise<void>;
}

/** The calls core paces: a new message, an edit of one, files uploaded as a new message, a message one person sees. */
export type PacedCall = 'post' | 'edit' | 'upload' | 'private';

export interface SurfaceLimits {
  /** Longest message text, in characters of standard Markdown (Slack ~4000, Discord 2000). */
  maxMessageChars: number;
  /** Shortest gap between two new messages (posts, uploads) in one channel (about 1000 ms on both). */
  minPostIntervalMs: number;
  /** Shortest gap between two edits in one channel (about 1000 ms on both). */
  minEditIntervalMs: number;
  /**
   * New messages a channel takes in a row: at most this many in any this
   * many post intervals (Discord: five in five seconds). Edits, whose limits
   * are not documented, keep one an interval. Unset: one.
   */
  channelBurst?: number | undefined;
  /** Shortest gap between two private messages (`postPrivate`) in one channel; `minPostIntervalMs` when unset. */
  minPrivateIntervalMs?: number | undefined;
  /** Files one message may carry (Discord 10). */
  maxFilesPerMessage: number;
  /** Largest upload, in bytes (Discord 10 MiB by default). */
  maxUploadBytes: number;
}

/**
 * Where a message goes. `threadId` is the platform's thread key, opaque to
 * core: Slack thread_ts; Discord a thread channel or the message a reply
 * refers to, as the surface decides.
 */
export interface ChatTarget {
  channelId: string;
  threadId?: string | undefined;
}

/** A message the bot posted, enough to edit or delete it. */
export interface MessageRef {
  channelId: string;
  threadId?: string | undefined;
  messageId: string;
}

export interface Author {
  id: string;
  /** Display name, used to prefix the author's turns in a conversation. */
  name: string;
  isBot: boolean;
  /** This bot itself. */
  isSelf: boolean;
}

export interface ThreadMessage {
  id: string;
  author: Author;
  /**
   * Plain text: the mention of this bot removed, other mentions resolved to
   * `@name` by the surface (core never sees `<@U123>` or `<@123>`).
   */
  text: string;
  /** Attachments in message order; core picks images by their declared type. */
  attachments: AttachmentRef[];
}

/** An attachment as the platform declared it; `id` is opaque to core (it may be a URL). */
export interface AttachmentRef {
  id: string;
  name: string;
  mimeType?: string | undefined;
  /** Declared size in bytes, when the platform says. */
  size?: number | undefined;
}

export interface DownloadedFile {
  bytes: Uint8Array;
  /** MIME type the platform declared for the download (core checks the bytes anyway). */
  mimeType?: string | undefined;
  size: number;
}

/** What an upload became on the platform, as far as the surface knows it. */
export interface UploadReceipt {
  /** The message that shows the files. */
  messageId?: string | undefined;
  /** One per file, in upload order. */
  fileIds?: readonly string[] | undefined;
}

/** A button under a result: `id` (short, opaque) is what the platform gives back when it is pressed. */
export interface ResultButton {
  id: string;
  /** What it shows (`Re-roll`, `Vary 2`…), from copy.ts. */
  label: string;
  action: ResultAction;
}

/** What a result's button does: the same request again, a close variation, an edit by form, the parent shown again. */
export type ResultAction = 'reroll' | 'vary' | 'edit' | 'undo';

/** Where an image the bot posted is kept on the platform, as its version record says. */
export interface PostedImage {
  channelId: string;
  threadId?: string | undefined;
  /** The message that shows it, when known. */
  messageId?: string | undefined;
  fileId?: string | undefined;
  /** Its position among the images its job posted (the attachment's position in a one-message result). */
  index: number;
  /** A name for it in messages (`image v2`). */
  name: string;
  mimeType: string;
  size: number;
}

export interface UploadFile {
  /** File name with its real extension (`image-1.webp`). */
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

/** Who a streamed reply answers (Slack native streaming needs the recipient outside DMs). */
export interface ReplyContext {
  recipientUserId: string;
}

/**
 * A platform's own streaming of one message, as calls: core's reply pump
 * decides when each goes out (the channel's budget, retries) and what it
 * carries (standard Markdown, at most `maxChunkChars` a call).
 */
export interface ReplyStream {
  readonly maxChunkChars: number;
  /** Shows what the reply waits for (core's words) until the stream starts; lasts until then. */
  showStatus(status: string): Promise<void>;
  /** Starts the message with its first text. */
  start(markdown: string): Promise<void>;
  append(markdown: string): Promise<void>;
  /**
   * Ends the message, with the last text if any. `complete`: the reply's
   * whole text is out (it was not cut off by a stop), so the platform may ask
   * what the person thought of it (Slack's feedback buttons).
   */
  stop(markdown: string | undefined, options?: { complete?: boolean }): Promise<void>;
  /** The message the stream writes, once started (so a job can record it). */
  messageId?(): string | undefined;
  /**
   * Optional: shows a task beside the streamed text, for what the bot does
   * while a tool works (Slack: a `task_update` chunk of chat.appendStream,
   * `{ type: 'task_update', id, title, status }`, shown as a task card among
   * the text in the default `timeline` display mode). A later update with the
   * same `id` changes that task's status. Without it, a started stream shows
   * no activity at all.
   */
  task?(update: StreamTaskUpdate): Promise<void>;
}

/** One update of a stream's task (`ReplyStream.task`). */
export interface StreamTaskUpdate {
  /** Stable for one task, unique within the stream. */
  id: string;
  /** What the bot does, as core words it (standard Markdown; a plain-text title drops the marks). */
  title: string;
  status: 'in_progress' | 'complete' | 'error';
}
