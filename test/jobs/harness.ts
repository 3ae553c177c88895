import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startEmulator, type Emulator } from '@genbot/emulator';
import type {
  ChatLogger,
  ChatModel,
  ChatSurface,
  ChatTarget,
  ImageModel,
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
import type { QuotaConfig } from '@genbot/core/config';
import { type ChatJob, ChatJobIntake, JobWorker, LedgerUsageReporter, type SurfaceFactory } from '@genbot/core/jobs';
import { type OperatorSettings, PlaceSettings } from '@genbot/core/settings';
import { openStore } from '@genbot/store';
import {
  findPostgresBin,
  installedOrSkipped,
  POSTGRES_INSTALL_HINT,
  runToCompletion,
  startPostgres,
} from '@genbot/test-servers';

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
  /** Called as each upload is made, before it returns (a test stops a run right there). */
  onUpload: ((comment: string) => void) | undefined;
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
        this.onUpload?.(comment);
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
  /** The floor's logger, for a test's own worker. */
  logger: ChatLogger;
  platform: MemoryPlatform;
  runtime: BotRuntime;
  queue: InProcessJobQueue;
  worker: JobWorker;
  intake: ChatJobIntake;
  usage: LedgerUsageReporter;
  /** Each place's settings, as the intake resolves them into each job. */
  settings: PlaceSettings;
  close(): Promise<void>;
}

/** The operator's settings of every rig: two models of each kind to choose from, no budget unless a test sets one. */
export function operatorOf(over: Partial<OperatorSettings> = {}): OperatorSettings {
  return {
    chatModels: ['chat', 'chat-b'],
    imageModels: ['img', 'img-b'],
    chatModel: 'chat',
    imageModel: 'img',
    systemPrompt: undefined,
    budgetImagesPerDay: undefined,
    budgetChatTokensPerDay: undefined,
    ...over,
  };
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
  /** The operator's settings (default: `operatorOf()`). */
  operator?: Partial<OperatorSettings>;
}

/** What one worker process is made of, on a store and a platform it may share with others. */
export interface WorkerParts {
  store: Store;
  platform: MemoryPlatform;
  /** The model service's client; the image and chat models default to it. */
  client: GenAiClient;
  images?: ImageModel;
  chat?: ChatModel;
  logger: ChatLogger;
  quota?: RigOptions['quota'];
  now?: () => Date;
  postedWaitMs?: number;
}

/** A worker as the launcher builds one, with its own runtime (a process of its own). */
export function startWorker(parts: WorkerParts): { worker: JobWorker; runtime: BotRuntime } {
  const { store, platform, client, logger } = parts;
  const runtime = new BotRuntime();
  const worker = new JobWorker({
    quota: quotaOf(parts.quota),
    store,
    runtime,
    surfaces: [platform],
    deps: {
      images: parts.images ?? client,
      chat: parts.chat ?? client,
      config: { imageModel: 'img', chatModel: 'chat' },
      logger,
    },
    logger,
    ...(parts.now === undefined ? {} : { now: parts.now }),
    ...(parts.postedWaitMs === undefined ? {} : { postedWait: { timeoutMs: parts.postedWaitMs } }),
    storeRetry: { firstDelayMs: 50, maxDelayMs: 200 },
  });
  return { worker, runtime };
}

function quotaOf(quota: RigOptions['quota']): QuotaConfig {
  return { imagesPerDay: quota?.imagesPerDay, chatTokensPerDay: quota?.chatTokensPerDay };
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
  const queue = new InProcessJobQueue();
  const quota = quotaOf(options.quota);
  const { worker, runtime } = startWorker({
    store,
    platform,
    client,
    logger,
    quota: options.quota,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.postedWaitMs === undefined ? {} : { postedWaitMs: options.postedWaitMs }),
  });
  if (options.process !== false) {
    queue.process(worker.handle, { concurrency: { image: 4, stream: 4 }, platforms: worker.platforms });
  }
  const settings = new PlaceSettings({ store: store.settings, operator: operatorOf(options.operator) });
  const intake = new ChatJobIntake({ store, queue, runtime, quota, logger, settings });
  return {
    store,
    emulator,
    client,
    logger,
    platform,
    runtime,
    queue,
    worker,
    intake,
    usage: new LedgerUsageReporter(store.usage, quota, settings),
    settings,
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

/** Fresh databases of one kind, one a test, so a test's counts and message ids meet no other's. */
export interface Databases {
  freshUrl(): Promise<string>;
  close(): Promise<void>;
}

export interface StoreBackend {
  name: string;
  start(): Promise<Databases>;
}

/** SQLite files, and PostgreSQL when it is installed (see `installedOrSkipped`). */
export function storeBackends(): StoreBackend[] {
  const sqlite: StoreBackend = {
    name: 'SQLite',
    start: async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'genbot-jobs-'));
      let databases = 0;
      return {
        freshUrl: async () => `sqlite:${path.join(dir, `genbot-${++databases}.db`)}`,
        close: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
  const bin = findPostgresBin();
  const postgres: StoreBackend = {
    name: 'PostgreSQL',
    start: async () => {
      const server = await startPostgres();
      let databases = 0;
      return {
        freshUrl: async () => {
          const name = `jobs_${++databases}`;
          const where = ['-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres'];
          await runToCompletion('createdb', path.join(bin ?? '', 'createdb'), [...where, name]);
          return server.urlOf(name);
        },
        close: () => server.close(),
      };
    },
  };
  const installed = installedOrSkipped({
    name: 'PostgreSQL',
    found: bin !== undefined,
    install: POSTGRES_INSTALL_HINT,
  });
  return installed ? [sqlite, postgres] : [sqlite];
}
