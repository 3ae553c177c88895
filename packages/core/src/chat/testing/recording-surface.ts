import type {
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
} from '../surface.js';

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
}

export type SurfaceCall = 'post' | 'edit' | 'upload' | 'download' | 'readThread';

export interface RecordingSurfaceOptions {
  limits?: Partial<SurfaceLimits>;
  /** Give the surface a showProgress (typing indicator); without it core posts a placeholder. */
  progress?: boolean;
  format?: (markdown: string) => string;
  thread?: ThreadMessage[];
  files?: Record<string, Uint8Array>;
}

export class RecordingSurface implements ChatSurface {
  readonly limits: SurfaceLimits;
  readonly messages: RecordedMessage[] = [];
  readonly uploads: RecordedUpload[] = [];
  readonly progressTimes: number[] = [];
  readonly downloads: string[] = [];
  thread: ThreadMessage[];
  readonly showProgress: ((target: ChatTarget) => Promise<void>) | undefined;
  /** Errors the next calls of a kind throw, in order. */
  readonly failures: Record<SurfaceCall, unknown[]> = { post: [], edit: [], upload: [], download: [], readThread: [] };
  readonly #format: (markdown: string) => string;
  readonly #files: Map<string, Uint8Array>;
  #nextId = 1;

  constructor(options: RecordingSurfaceOptions = {}) {
    this.limits = {
      maxMessageChars: 2000,
      minEditIntervalMs: 1000,
      maxFilesPerMessage: 10,
      maxUploadBytes: 10 * 1024 * 1024,
      ...options.limits,
    };
    this.#format = options.format ?? ((markdown) => markdown);
    this.thread = options.thread ?? [];
    this.#files = new Map(Object.entries(options.files ?? {}));
    this.showProgress =
      options.progress === true
        ? async () => {
            this.progressTimes.push(Date.now());
          }
        : undefined;
  }

  formatMarkdown(markdown: string): string {
    return this.#format(markdown);
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

  async uploadFiles(target: ChatTarget, files: readonly UploadFile[], comment: string): Promise<void> {
    this.#maybeFail('upload');
    if (files.length > this.limits.maxFilesPerMessage) throw new Error('too many files');
    this.uploads.push({ target, files: [...files], comment });
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
