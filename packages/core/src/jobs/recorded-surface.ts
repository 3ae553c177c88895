import type {
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  PostedImage,
  ReplyContext,
  ReplyStream,
  ResultButton,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
  UploadReceipt,
} from '../surface/surface.js';
import type { JobStep, JobStore } from '../store/index.js';

export const POSTED_STEP = 'posted';
/** A message a platform stream started: numbered with the posts, since it takes a post's place. */
export const STREAMED_STEP = 'streamed';
export const UPLOADED_STEP = 'uploaded';
/** A message the job deleted (a progress message that gave way to its result): run again, it stays deleted. */
export const DELETED_STEP = 'deleted';

/** What a job's images are given just before they are posted. */
export interface PreparedUpload {
  /** Their version numbers, in order (for the buttons' forms). */
  numbers?: readonly number[] | undefined;
  /** The result's text, when the numbers change it. */
  comment?: string | undefined;
}

/** What a job records around each upload of its images (image versions). */
export interface UploadRecorder {
  /** Before the upload: records the images, so a press on the result finds them the moment it shows. */
  before(files: readonly UploadFile[], firstIndex: number): Promise<PreparedUpload>;
  /** Once the upload is on the platform (or found recorded when the job runs again): where it is. */
  after(files: readonly UploadFile[], receipt: UploadReceipt, firstIndex: number): Promise<void>;
}

/** The buttons of a result message showing the job's images `firstIndex` to `firstIndex + count - 1`. */
export type ResultButtonsFor = (firstIndex: number, count: number, numbers?: readonly number[]) => ResultButton[];

/**
 * A job's surface that records every visible step (a message posted and its
 * id, files uploaded and theirs) before the job takes the next, numbered in
 * the order they succeed. Run again after a crash, the same job finds its
 * steps recorded: a post returns the recorded message instead of posting
 * again, an upload is skipped, and edits land on the messages already shown.
 * Steps are numbered per kind, so retried failures take no number.
 */
export class RecordedSurface implements ChatSurface {
  readonly #inner: ChatSurface;
  readonly #jobId: string;
  readonly #jobs: Pick<JobStore, 'recordStep'>;
  readonly #recorded: readonly JobStep[];
  readonly #recorder: UploadRecorder | undefined;
  readonly #buttons: ResultButtonsFor | undefined;
  #posts = 0;
  #uploads = 0;
  #filesUploaded = 0;
  #deletions = 0;
  readonly showProgress?: ChatSurface['showProgress'];
  readonly paceKey?: ChatSurface['paceKey'];
  readonly delete?: (message: MessageRef) => Promise<void>;
  readonly resultStandsAlone?: boolean;
  readonly markTurnedAway?: (message: MessageRef) => Promise<void>;
  readonly postedImage?: (image: PostedImage) => AttachmentRef;
  readonly postPrivate?: (target: ChatTarget, userId: string, text: string) => Promise<void>;

  constructor(
    inner: ChatSurface,
    job: { id: string; steps: readonly JobStep[] },
    jobs: Pick<JobStore, 'recordStep'>,
    options: { recorder?: UploadRecorder; buttons?: ResultButtonsFor } = {},
  ) {
    this.#inner = inner;
    this.#jobId = job.id;
    this.#recorded = job.steps;
    this.#jobs = jobs;
    this.#recorder = options.recorder;
    this.#buttons = options.buttons;
    const { showProgress, paceKey, delete: remove, markTurnedAway, postedImage, postPrivate } = inner;
    if (paceKey !== undefined) this.paceKey = (call, where) => paceKey.call(inner, call, where);
    if (showProgress !== undefined) this.showProgress = (target, options) => showProgress.call(inner, target, options);
    if (remove !== undefined) {
      this.delete = async (message) => {
        if (this.#deleted(message.messageId)) return;
        await remove.call(inner, message);
        await this.#record({ name: DELETED_STEP, index: this.#deletions, messageId: message.messageId });
        this.#deletions += 1;
      };
    }
    if (inner.resultStandsAlone !== undefined) this.resultStandsAlone = inner.resultStandsAlone;
    if (markTurnedAway !== undefined) this.markTurnedAway = (message) => markTurnedAway.call(inner, message);
    if (postedImage !== undefined) this.postedImage = (image) => postedImage.call(inner, image);
    // A private note leaves nothing to record: it is only ever a courtesy ahead of a public message.
    if (postPrivate !== undefined)
      this.postPrivate = (target, user, text) => postPrivate.call(inner, target, user, text);
  }

  get limits(): SurfaceLimits {
    return this.#inner.limits;
  }

  /** Whether this run repeats steps a previous run already took. */
  get resuming(): boolean {
    return this.#recorded.length > 0;
  }

  async post(target: ChatTarget, text: string): Promise<MessageRef> {
    const index = this.#posts;
    const done = this.#step(POSTED_STEP, index) ?? this.#step(STREAMED_STEP, index);
    if (done?.messageId !== undefined) {
      this.#posts += 1;
      const ref = { channelId: target.channelId, threadId: target.threadId, messageId: done.messageId };
      // Deleted by the run before (it gave way to the result): nothing to bring up to date.
      if (this.#deleted(done.messageId)) return ref;
      // A stream the crashed run left open takes no edit until it is ended.
      if (done.name === STREAMED_STEP) await this.#inner.endStream?.(ref);
      // The recorded message may show an older text (a restart note, a reply cut short): bring it up to date.
      await this.#inner.edit(ref, text);
      return ref;
    }
    const ref = await this.#inner.post(target, text);
    this.#posts += 1;
    await this.#record({ name: POSTED_STEP, index, messageId: ref.messageId });
    return ref;
  }

  async edit(message: MessageRef, text: string): Promise<void> {
    if (this.#deleted(message.messageId)) return;
    await this.#inner.edit(message, text);
  }

  #deleted(messageId: string): boolean {
    return this.#recorded.some((step) => step.name === DELETED_STEP && step.messageId === messageId);
  }

  async uploadFiles(target: ChatTarget, files: readonly UploadFile[], comment: string): Promise<UploadReceipt> {
    const index = this.#uploads;
    const firstFile = this.#filesUploaded;
    const done = this.#step(UPLOADED_STEP, index);
    if (done !== undefined) {
      this.#uploads += 1;
      this.#filesUploaded += files.length;
      const recorded = { messageId: done.messageId, fileIds: done.fileIds };
      // The run before may have stopped between the upload and recording where its images are.
      await this.#recorder?.after(files, recorded, firstFile);
      return recorded;
    }
    // Recorded before they show: a press on the result always finds its images.
    const prepared = (await this.#recorder?.before(files, firstFile)) ?? {};
    // The buttons come from the job's own image indexes, so a message's buttons are known before it is posted.
    const buttons = this.#buttons?.(firstFile, files.length, prepared.numbers);
    const text = prepared.comment ?? comment;
    const receipt =
      (await (buttons === undefined || buttons.length === 0
        ? this.#inner.uploadFiles(target, files, text)
        : this.#inner.uploadFiles(target, files, text, buttons))) ?? {};
    this.#uploads += 1;
    this.#filesUploaded += files.length;
    await this.#record({ name: UPLOADED_STEP, index, messageId: receipt.messageId, fileIds: receipt.fileIds });
    await this.#recorder?.after(files, receipt, firstFile);
    return receipt;
  }

  readThread(target: ChatTarget, options?: { signal?: AbortSignal }): Promise<ThreadMessage[]> {
    return this.#inner.readThread(target, options);
  }

  download(attachment: AttachmentRef, options?: { signal?: AbortSignal }): Promise<DownloadedFile> {
    return this.#inner.download(attachment, options);
  }

  /**
   * The platform's stream, whose message is recorded once started, like a
   * post. Run again over a message a stream started, none is opened: the
   * reply goes on by editing that message in place (see `post`), so a
   * crash never leaves two replies.
   */
  get openStream(): ((target: ChatTarget, context: ReplyContext) => ReplyStream | undefined) | undefined {
    const open = this.#inner.openStream;
    if (open === undefined) return undefined;
    return (target, context) => {
      const shown = this.#step(STREAMED_STEP, this.#posts) ?? this.#step(POSTED_STEP, this.#posts);
      if (shown !== undefined) return undefined;
      const stream = open.call(this.#inner, target, context);
      return stream === undefined ? undefined : this.#recordedStream(stream);
    };
  }

  get endStream(): ((message: MessageRef) => Promise<void>) | undefined {
    const end = this.#inner.endStream;
    return end === undefined ? undefined : (message) => end.call(this.#inner, message);
  }

  #recordedStream(stream: ReplyStream): ReplyStream {
    return {
      maxChunkChars: stream.maxChunkChars,
      showStatus: (status) => stream.showStatus(status),
      start: async (markdown) => {
        await stream.start(markdown);
        const index = this.#posts;
        this.#posts += 1;
        await this.#record({ name: STREAMED_STEP, index, messageId: stream.messageId?.() });
      },
      append: (markdown) => stream.append(markdown),
      stop: (markdown) => stream.stop(markdown),
      ...(stream.messageId === undefined ? {} : { messageId: () => stream.messageId?.() }),
    };
  }

  #step(name: string, index: number): JobStep | undefined {
    return this.#recorded.find((step) => step.name === name && step.index === index);
  }

  async #record(step: {
    name: string;
    index: number;
    messageId?: string | undefined;
    fileIds?: readonly string[] | undefined;
  }): Promise<void> {
    await this.#jobs.recordStep(this.#jobId, step);
  }
}
