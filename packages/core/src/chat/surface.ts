/**
 * The port each chat app implements (Slack with the Web API, Discord with
 * discord.js). Core talks only to this: plain data in, plain data out, no
 * platform type. A surface may be built per invocation (e.g. around a Discord
 * interaction token) since use cases never keep one.
 *
 * Text passed to `post`, `edit` and upload comments is already in the
 * surface's dialect: core runs its standard Markdown through
 * `formatMarkdown` first and measures the limits on the result.
 *
 * Errors: throw `RateLimitedError` for a platform rate limit; anything else
 * is treated as transient and retried a few times.
 */
export interface ChatSurface {
  readonly limits: SurfaceLimits;

  /** Standard Markdown -> the platform's text dialect (Slack mrkdwn; identity for Discord). */
  formatMarkdown(markdown: string): string;

  /** Posts a message into the channel, or into the thread when `target.threadId` is set. */
  post(target: ChatTarget, text: string): Promise<MessageRef>;

  /** Replaces a message's whole text. */
  edit(message: MessageRef, text: string): Promise<void>;

  /** Optional; core only uses it where a message became pointless. */
  delete?(message: MessageRef): Promise<void>;

  /**
   * Uploads files as one message (at most `limits.maxFilesPerMessage`, each at
   * most `limits.maxUploadBytes`) with `comment` as its text.
   */
  uploadFiles(target: ChatTarget, files: readonly UploadFile[], comment: string): Promise<void>;

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
   * placeholder message instead.
   */
  showProgress?(target: ChatTarget): Promise<void>;

  /**
   * Optional streaming strategy of the platform's own (Slack chat.startStream /
   * appendStream / stopStream). Without it, core streams by editing messages
   * in place (`createEditReplyWriter`).
   */
  openReplyWriter?(target: ChatTarget, context: ReplyContext): ReplyWriter;
}

export interface SurfaceLimits {
  /** Longest message text, measured after `formatMarkdown` (Slack ~4000, Discord 2000). */
  maxMessageChars: number;
  /** Shortest gap between two edits of one message (about 1000 ms on both). */
  minEditIntervalMs: number;
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
 * The renderer port: one streamed reply. `append` never blocks; `finish`
 * resolves once the complete text is on the platform; `fail` keeps what was
 * delivered and adds `userMessage` (standard Markdown), or shows it alone
 * when no text came (so a reply without text ends in `fail`, never `finish`).
 * Either may reject when the platform keeps refusing. A writer shows its own
 * progress marker from the moment it is opened until the first text.
 */
export interface ReplyWriter {
  append(delta: string): void;
  finish(): Promise<void>;
  fail(userMessage: string): Promise<void>;
}
