import type {
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  PostedImage,
  ResultButton,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
} from '../src/surface/surface.js';
import type { Platform } from '../src/surface/platform.js';

/** Whether `ms` pass (on the global timers, which tests fake) before `signal` aborts. */
function landsUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

/** A test double of our ChatSurface port: keeps messages in memory and records every call with its time. */

export interface RecordedMessage {
  ref: MessageRef;
  text: string;
  postedAt: number;
  editTimes: number[];
}

export interface RecordedUpload {
  target: ChatTarget;
  files: UploadFile[];
  comment: string;
  buttons?: ResultButton[] | undefined;
}

export type SurfaceCall = 'post' | 'edit' | 'upload' | 'download' | 'readThread';

export interface RecordingSurfaceOptions {
  limits?: Partial<SurfaceLimits>;
  /** Give the surface a showProgress (typing indicator); without it core posts a placeholder. */
  progress?: boolean;
  /**
   * How long each showProgress takes to reach the platform (a typing call
   * stuck behind a rate limit); its signal ends the wait, as a surface whose
   * marker may land late does. Recorded in `progressTimes` when it lands.
   */
  progressMs?: number;
  /** The progress marker says what the bot does (Slack's assistant status): each activity shown is in `progressActivities`. */
  progressSaysActivity?: boolean;
  /** Give the surface a paceKey: its calls count against this key, not their channel (Discord's interaction webhooks). */
  paceKey?: string;
  /** The platform the surface stands for (default Slack). */
  platform?: Platform;
  /** Give the surface a postPrivate (Slack's ephemeral messages), recorded in `privates`. */
  private?: boolean;
  thread?: ThreadMessage[];
  files?: Record<string, Uint8Array>;
}

export class RecordingSurface implements ChatSurface {
  readonly platform: Platform;
  readonly limits: SurfaceLimits;
  readonly messages: RecordedMessage[] = [];
  readonly uploads: RecordedUpload[] = [];
  readonly progressTimes: number[] = [];
  /** The activity each marker shown said (undefined: only that the bot works). */
  readonly progressActivities: Array<string | undefined> = [];
  readonly progressSaysActivity: boolean | undefined;
  readonly downloads: string[] = [];
  thread: ThreadMessage[];
  readonly showProgress: ChatSurface['showProgress'];
  readonly paceKey: ChatSurface['paceKey'];
  readonly postPrivate: ((target: ChatTarget, userId: string, text: string) => Promise<void>) | undefined;
  /** Private messages, in order. */
  readonly privates: Array<{ target: ChatTarget; userId: string; text: string; at: number }> = [];
  /** Errors the next calls of a kind throw, in order. */
  readonly failures: Record<SurfaceCall, unknown[]> = { post: [], edit: [], upload: [], download: [], readThread: [] };
  readonly #files: Map<string, Uint8Array>;
  #nextId = 1;

  constructor(options: RecordingSurfaceOptions = {}) {
    this.platform = options.platform ?? 'slack';
    this.limits = {
      maxMessageChars: 2000,
      minPostIntervalMs: 1000,
      minEditIntervalMs: 1000,
      maxFilesPerMessage: 10,
      maxUploadBytes: 10 * 1024 * 1024,
      ...options.limits,
    };
    this.thread = options.thread ?? [];
    this.#files = new Map(Object.entries(options.files ?? {}));
    const { paceKey } = options;
    this.paceKey = paceKey === undefined ? undefined : () => paceKey;
    const progressMs = options.progressMs ?? 0;
    this.progressSaysActivity = options.progressSaysActivity;
    this.showProgress =
      options.progress === true
        ? async (_target, { signal, activity } = {}) => {
            if (progressMs > 0 && !(await landsUnlessAborted(progressMs, signal))) return;
            this.progressTimes.push(Date.now());
            this.progressActivities.push(activity);
          }
        : undefined;
    this.postPrivate =
      options.private === true
        ? async (target, userId, text) => {
            this.privates.push({ target, userId, text, at: Date.now() });
          }
        : undefined;
  }

  async post(target: ChatTarget, text: string): Promise<MessageRef> {
    this.#maybeFail('post');
    this.#checkLength(text);
    const ref = { channelId: target.channelId, threadId: target.threadId, messageId: `m${this.#nextId++}` };
    this.messages.push({ ref, text, postedAt: Date.now(), editTimes: [] });
    return ref;
  }

  async edit(message: MessageRef, text: string): Promise<void> {
    this.#maybeFail('edit');
    this.#checkLength(text);
    const found = this.messages.find((m) => m.ref.messageId === message.messageId);
    if (found === undefined) throw new Error(`no message ${message.messageId}`);
    found.text = text;
    found.editTimes.push(Date.now());
  }

  async uploadFiles(
    target: ChatTarget,
    files: readonly UploadFile[],
    comment: string,
    buttons?: readonly ResultButton[],
  ): Promise<void> {
    this.#maybeFail('upload');
    if (files.length > this.limits.maxFilesPerMessage) throw new Error('too many files');
    this.uploads.push({
      target,
      // A copy: the job frees the bytes it lent once the upload settles.
      files: files.map((file) => ({ ...file, bytes: Buffer.from(file.bytes) })),
      comment,
      ...(buttons === undefined ? {} : { buttons: [...buttons] }),
    });
  }

  /** A posted image is the file registered under `posted:<fileId>`. */
  postedImage(image: PostedImage): AttachmentRef {
    return { id: `posted:${image.fileId ?? ''}`, name: image.name, mimeType: image.mimeType, size: image.size };
  }

  async readThread(): Promise<ThreadMessage[]> {
    this.#maybeFail('readThread');
    return this.thread;
  }

  async download(attachment: AttachmentRef): Promise<DownloadedFile> {
    this.#maybeFail('download');
    this.downloads.push(attachment.id);
    const bytes = this.#files.get(attachment.id);
    if (bytes === undefined) throw new Error(`no file ${attachment.id}`);
    return { bytes, mimeType: attachment.mimeType, size: bytes.byteLength };
  }

  /** Texts of the messages, in posting order. */
  texts(): string[] {
    return this.messages.map((m) => m.text);
  }

  get editCount(): number {
    return this.messages.reduce((sum, m) => sum + m.editTimes.length, 0);
  }

  #maybeFail(kind: SurfaceCall): void {
    const failure = this.failures[kind].shift();
    if (failure !== undefined) throw failure;
  }

  #checkLength(text: string): void {
    if (text.length > this.limits.maxMessageChars) throw new Error(`msg_too_long (${text.length})`);
  }
}
