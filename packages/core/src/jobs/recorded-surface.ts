import type {
  ChatSurface,
  ChatTarget,
  MessageRef,
  ReplyContext,
  ReplyStream,
  ResultButton,
  UploadFile,
  UploadReceipt,
} from '../surface/surface.js';
import type { JobStep, JobStore } from '../store/index.js';
import { withOverrides } from './surface-overrides.js';

export const POSTED_STEP = 'posted';
/** A message a platform stream started: numbered with the posts, since it takes a post's place. */
export const STREAMED_STEP = 'streamed';
export const UPLOADED_STEP = 'uploaded';
/** A message the job deleted (a progress message that gave way to its result): run again, it stays deleted. */
export const DELETED_STEP = 'deleted';

/** What a job records around each upload of its images (image versions). */
export interface UploadRecorder {
  /**
   * Before the upload: records the images, so a press on the result finds
   * them the moment it shows; returns their version numbers, in order.
   */
  before(files: readonly UploadFile[], firstIndex: number): Promise<readonly number[]>;
  /** Once the upload is on the platform (or found recorded when the job runs again): where it is. */
  after(files: readonly UploadFile[], receipt: UploadReceipt, firstIndex: number): Promise<void>;
}

/** An upload a run before made: where it is, and how many images it carried. */
export type PostedBefore = UploadReceipt & { files: number };

/** The buttons of a result message showing the job's images `firstIndex` to `firstIndex + count - 1`. */
export type ResultButtonsFor = (firstIndex: number, count: number, numbers?: readonly number[]) => ResultButton[];

/** A job's surface that records its steps, and whether it runs again over steps a run before took. */
export type RecordedSurface = ChatSurface & {
  readonly resuming: boolean;
  /**
   * Records the images of the next upload as versions ahead of it and
   * returns their numbers (`ChatDeps.numberImages`); undefined when the
   * upload was made by a run before, or nothing records versions.
   */
  numberImages(files: readonly UploadFile[]): Promise<readonly number[] | undefined>;
  /**
   * The next upload, when a run before made it: taken, so the job's later
   * uploads go on after it and the work that would make it is not done again.
   */
  postedBefore(): PostedBefore | undefined;
};

/**
 * A job's surface that records every visible step (a message posted and its
 * id, files uploaded and theirs, a message deleted, a stream started) before
 * the job takes the next, numbered in the order they succeed. Run again after
 * a crash, the same job finds its steps recorded: a post returns the recorded
 * message instead of posting again, an upload is skipped, and edits land on
 * the messages already shown. Steps are numbered per kind, so retried
 * failures take no number. The text of each message is the use case's: the
 * surface only records. Every other member is the platform's own.
 */
export function recordedSurface(
  inner: ChatSurface,
  job: { id: string; steps: readonly JobStep[] },
  jobs: Pick<JobStore, 'recordStep'>,
  options: { recorder?: UploadRecorder; buttons?: ResultButtonsFor } = {},
): RecordedSurface {
  const steps = new JobSteps(inner, job, jobs, options);
  const overrides: Partial<ChatSurface> & Omit<RecordedSurface, keyof ChatSurface> = {
    resuming: job.steps.length > 0,
    numberImages: (files) => steps.numberImages(files),
    postedBefore: () => steps.postedBefore(),
    post: (target, text) => steps.post(target, text),
    edit: (message, text) => steps.edit(message, text),
    uploadFiles: (target, files, comment) => steps.uploadFiles(target, files, comment),
  };
  const { delete: remove, openStream } = inner;
  if (remove !== undefined) overrides.delete = (message) => steps.delete(message, remove.bind(inner));
  if (openStream !== undefined)
    overrides.openStream = (target, context) => steps.openStream(target, context, openStream.bind(inner));
  return withOverrides(inner, overrides);
}

class JobSteps {
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
  /** The version numbers of the next upload, recorded ahead of it. */
  #numbered: { upload: number; numbers: readonly number[] } | undefined;

  constructor(
    inner: ChatSurface,
    job: { id: string; steps: readonly JobStep[] },
    jobs: Pick<JobStore, 'recordStep'>,
    options: { recorder?: UploadRecorder; buttons?: ResultButtonsFor },
  ) {
    this.#inner = inner;
    this.#jobId = job.id;
    this.#recorded = job.steps;
    this.#jobs = jobs;
    this.#recorder = options.recorder;
    this.#buttons = options.buttons;
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

  async delete(message: MessageRef, remove: (message: MessageRef) => Promise<void>): Promise<void> {
    if (this.#deleted(message.messageId)) return;
    await remove(message);
    await this.#record({ name: DELETED_STEP, index: this.#deletions, messageId: message.messageId });
    this.#deletions += 1;
  }

  #deleted(messageId: string): boolean {
    return this.#recorded.some((step) => step.name === DELETED_STEP && step.messageId === messageId);
  }

  async numberImages(files: readonly UploadFile[]): Promise<readonly number[] | undefined> {
    const upload = this.#uploads;
    if (this.#recorder === undefined || this.#step(UPLOADED_STEP, upload) !== undefined) return undefined;
    const numbers = await this.#recorder.before(files, this.#filesUploaded);
    this.#numbered = { upload, numbers };
    return numbers;
  }

  postedBefore(): PostedBefore | undefined {
    const done = this.#step(UPLOADED_STEP, this.#uploads);
    if (done === undefined) return undefined;
    this.#uploads += 1;
    // Steps recorded before the count was kept carry one file id an image.
    const files = done.files ?? done.fileIds?.length ?? 1;
    this.#filesUploaded += files;
    return { messageId: done.messageId, fileIds: done.fileIds, files };
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
    // Recorded before they show (by the use case asking their numbers, or here): a press on the result always finds its images.
    const numbers =
      this.#numbered?.upload === index ? this.#numbered.numbers : await this.#recorder?.before(files, firstFile);
    // The buttons come from the job's own image indexes, so a message's buttons are known before it is posted.
    const buttons = this.#buttons?.(firstFile, files.length, numbers);
    const receipt =
      (await (buttons === undefined || buttons.length === 0
        ? this.#inner.uploadFiles(target, files, comment)
        : this.#inner.uploadFiles(target, files, comment, buttons))) ?? {};
    this.#uploads += 1;
    this.#filesUploaded += files.length;
    await this.#record({
      name: UPLOADED_STEP,
      index,
      messageId: receipt.messageId,
      fileIds: receipt.fileIds,
      files: files.length,
    });
    await this.#recorder?.after(files, receipt, firstFile);
    return receipt;
  }

  /**
   * The platform's stream, whose message is recorded once started, like a
   * post. Run again over a message a stream started, none is opened: the
   * reply goes on by editing that message in place (see `post`), so a
   * crash never leaves two replies.
   */
  openStream(
    target: ChatTarget,
    context: ReplyContext,
    open: (target: ChatTarget, context: ReplyContext) => ReplyStream | undefined,
  ): ReplyStream | undefined {
    const shown = this.#step(STREAMED_STEP, this.#posts) ?? this.#step(POSTED_STEP, this.#posts);
    if (shown !== undefined) return undefined;
    const stream = open(target, context);
    return stream === undefined ? undefined : this.#recordedStream(stream);
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
      stop: (markdown, options) => stream.stop(markdown, options),
      ...(stream.messageId === undefined ? {} : { messageId: () => stream.messageId?.() }),
      ...(stream.task === undefined ? {} : { task: (update) => stream.task?.(update) ?? Promise.resolve() }),
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
    files?: number | undefined;
  }): Promise<void> {
    await this.#jobs.recordStep(this.#jobId, step);
  }
}
