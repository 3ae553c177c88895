import { Writable } from 'node:stream';
import { startEmulator, type Emulator } from '@genbot/emulator';
import type {
  ChatSurface,
  ChatTarget,
  MessageRef,
  ResultButton,
  UploadFile,
  UploadReceipt,
} from '@genbot/core/surface';
import { GenAiClient } from '@genbot/core/genai';
import { InProcessJobQueue } from '@genbot/core/scheduling';
import { createLogger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import type { Store } from '@genbot/core/store';
import { type ChatJob, ChatJobIntake, JobWorker, LedgerUsageReporter, type SurfaceFactory } from '@genbot/core/jobs';
import { openStore } from '@genbot/store';

const API_KEY = 'jobs-test-key';

/** A platform in memory: what the bot posted, edited and uploaded, by message id. */
export class MemoryPlatform implements SurfaceFactory {
  readonly platform = 'slack' as const;
  readonly messages = new Map<string, { target: ChatTarget; text: string }>();
  readonly uploads: {
    target: ChatTarget;
    files: readonly UploadFile[];
    comment: string;
    buttons: readonly ResultButton[];
    messageId: string;
    fileIds: string[];
  }[] = [];
  /** Called as each message is posted, before the post returns (a test acts at that exact step). */
  onPost: ((text: string) => void) | undefined;
  #next = 1;

  surfaceFor(): ChatSurface {
    return {
      platform: this.platform,
      limits: {
        maxMessageChars: 4000,
        minPostIntervalMs: 0,
        minEditIntervalMs: 1,
        maxFilesPerMessage: 10,
        maxUploadBytes: 10 * 1024 * 1024,
      },
      post: async (target, text): Promise<MessageRef> => {
        const messageId = `m${this.#next++}`;
        this.messages.set(messageId, { target, text });
        this.onPost?.(text);
        return { ...target, messageId };
      },
      edit: async (message, text) => {
        const shown = this.messages.get(message.messageId);
        if (shown === undefined) throw new Error(`no message ${message.messageId}`);
        shown.text = text;
      },
      uploadFiles: async (target, files, comment, buttons = []): Promise<UploadReceipt> => {
        const messageId = `m${this.#next++}`;
        this.messages.set(messageId, { target, text: comment });
        const fileIds = files.map(() => `F${this.#next++}`);
        this.uploads.push({ target, files, comment, buttons, messageId, fileIds });
        return { messageId, fileIds };
      },
      // A version's file is downloaded by its id, as the platform keeps it.
      postedImage: (image) => ({
        id: image.fileId ?? '',
        name: image.name,
        mimeType: image.mimeType,
        size: image.size,
      }),
      // The thread as the platform would show it: the bot's uploads carry their files.
      readThread: async (target) =>
        this.uploads
          .filter((upload) => upload.target.threadId === target.threadId && target.threadId !== undefined)
          .map((upload) => ({
            id: upload.messageId,
            author: { id: 'B1', name: 'genbot', isBot: true, isSelf: true },
            text: '',
            attachments: upload.files.map((file, index) => ({
              id: upload.fileIds[index] ?? '',
              name: file.name,
              mimeType: file.mimeType,
              size: file.bytes.byteLength,
            })),
          })),
      download: async (attachment) => {
        for (const upload of this.uploads) {
          const index = upload.fileIds.indexOf(attachment.id);
          const file = upload.files[index];
          if (file !== undefined) return { bytes: file.bytes, mimeType: file.mimeType, size: file.bytes.byteLength };
        }
        throw new Error(`no file ${attachment.id}`);
      },
    };
  }

  texts(): string[] {
    return [...this.messages.values()].map((message) => message.text);
  }
}

export interface Rig {
  store: Store;
  emulator: Emulator;
  /** The model service's client the worker uses, for a test's own worker. */
  client: GenAiClient;
  platform: MemoryPlatform;
  runtime: BotRuntime;
  queue: InProcessJobQueue;
  worker: JobWorker;
  intake: ChatJobIntake;
  usage: LedgerUsageReporter;
  close(): Promise<void>;
}

export interface RigOptions {
  databaseUrl?: string;
  quota?: { imagesPerDay?: number; chatTokensPerDay?: number };
  /** The worker's clock (default the wall clock): a test moves it instead of waiting for time to pass. */
  now?: () => Date;
  /** Start the worker on the queue at once (default true). */
  process?: boolean;
  /** How long a press waits for its version to finish posting (default: the worker's minute). */
  postedWaitMs?: number;
  /** Where the floor's log lines go, at info (default: none are written). */
  logLines?: string[];
}

/** The jobs floor as the launcher composes it: a real store, the emulator, the queue, the worker and the intake. */
export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const store = await openStore(options.databaseUrl ?? 'sqlite::memory:');
  const emulator = await startEmulator({ apiKey: API_KEY, streamDelayMs: 1 });
  const lines = options.logLines;
  const logger =
    lines === undefined
      ? createLogger({ level: 'silent', secrets: [API_KEY] })
      : createLogger({
          level: 'info',
          secrets: [API_KEY],
          destination: new Writable({
            write(chunk: Buffer, _encoding, done) {
              lines.push(chunk.toString('utf8'));
              done();
            },
          }),
        });
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey: API_KEY, logger });
  const platform = new MemoryPlatform();
  const runtime = new BotRuntime();
  const queue = new InProcessJobQueue();
  const quota = { imagesPerDay: options.quota?.imagesPerDay, chatTokensPerDay: options.quota?.chatTokensPerDay };
  const worker = new JobWorker({
    quota,
    store,
    runtime,
    surfaces: [platform],
    deps: { images: client, chat: client, config: { imageModel: 'img', chatModel: 'chat' }, logger },
    logger,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.postedWaitMs === undefined ? {} : { postedWait: { timeoutMs: options.postedWaitMs } }),
    storeRetry: { firstDelayMs: 50, maxDelayMs: 200 },
  });
  if (options.process !== false) {
    queue.process(worker.handle, { concurrency: { image: 4, stream: 4 }, platforms: worker.platforms });
  }
  const intake = new ChatJobIntake({ store, queue, runtime, quota, logger });
  return {
    store,
    emulator,
    client,
    platform,
    runtime,
    queue,
    worker,
    intake,
    usage: new LedgerUsageReporter(store.usage, quota),
    async close() {
      await queue.close();
      await runtime.drain({ deadlineMs: 1000 });
      await client.close();
      await emulator.close();
      await store.close();
    },
  };
}

let nextId = 1;

export function imagineJob(prompt: string, userId = 'U1'): ChatJob {
  const id = `slack-cmd-test-${nextId++}`;
  return {
    id,
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    userId,
    input: { kind: 'imagine', imagine: { target: { channelId: 'C1' }, prompt, userId } },
  };
}

export function mentionJob(text: string, options: { threadId?: string; userId?: string } = {}): ChatJob {
  const userId = options.userId ?? 'U1';
  const messageId = `1700000000.${String(nextId++).padStart(6, '0')}`;
  const threadId = options.threadId ?? messageId;
  return {
    id: `slack-ev-test-${messageId}`,
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    threadId,
    userId,
    input: {
      kind: 'mention',
      mention: {
        target: { channelId: 'C1', threadId },
        trigger: {
          id: messageId,
          author: { id: userId, name: 'alice', isBot: false, isSelf: false },
          text,
          attachments: [],
        },
        userId,
      },
    },
  };
}
