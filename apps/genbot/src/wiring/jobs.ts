import type { ConversationConfig } from '@genbot/core/config';
import type { QuotaConfig } from '@genbot/core/config';
import {
  ChatJobIntake,
  JobWorker,
  type JobIntake,
  type JobWorkerOptions,
  LedgerUsageReporter,
  meteredIntake,
  type RetentionSweep,
  ResultPresses,
  type SharedPlaces,
  startRetentionSweep,
  type SurfaceFactory,
} from '@genbot/core/jobs';
import type { Logger } from '@genbot/core/log';
import { type Metrics, noMetrics } from '@genbot/core/metrics';
import type { BotRuntime } from '@genbot/core/runtime';
import { InProcessJobQueue, type JobLane, type JobQueue } from '@genbot/core/scheduling';
import type { Store } from '@genbot/core/store';
import type { ChatModel, ImageModel } from '@genbot/core/surface';
import { type OperatorSettings, PlaceSettings } from '@genbot/core/settings';
import type { ReadinessCheck } from '@genbot/health';
import { openStore } from '@genbot/store';
import type { Stoppable } from './closing.js';
import { sharedQueueHandler } from './shared-queue-handler.js';
import { databaseReadiness } from './store-connection.js';

/**
 * Jobs run in a process at once, per lane, on the in-process queue: the scheduler's own limits
 * decide what runs and what waits in line (with its place shown), so the queue hands jobs over as
 * soon as they come.
 */
const IN_PROCESS_CONCURRENCY: Readonly<Record<JobLane, number>> = { image: 64, stream: 128 };

const NO_QUOTA: QuotaConfig = { imagesPerDay: undefined, chatTokensPerDay: undefined };

/** The service's models, and which of them jobs use. */
export interface WorkerModels {
  client: ImageModel & ChatModel;
  imageModel: string;
  chatModel: string;
}

/**
 * Where jobs are recorded: DATABASE_URL's `StoreConnection` (which may open after start-up), or a
 * store already open (`openedDatabase`).
 */
export interface JobsDatabase {
  readonly store: Store;
  /** Runs once the store is open (at once when it is). */
  whenOpen(callback: () => void): void;
  close(): Promise<void>;
}

/** A fresh SQLite database in memory: the playground's (the fakes start empty too), and tests'. */
export async function inMemoryDatabase(logger?: Logger): Promise<JobsDatabase> {
  return openedDatabase(await openStore('sqlite::memory:', logger === undefined ? {} : { logger }));
}

/** A store already open, as the jobs' database: closed with the jobs. */
export function openedDatabase(store: Store): JobsDatabase {
  return { store, whenOpen: (callback) => callback(), close: () => store.close() };
}

export interface JobsOptions {
  database: JobsDatabase;
  /** The process's one runtime: its drain stops the jobs, and its admission closes the intake. */
  runtime: BotRuntime;
  models: WorkerModels;
  logger: Logger;
  /** Daily quotas (default: none). */
  quota?: QuotaConfig | undefined;
  /**
   * CHAT_MODELS, IMAGE_MODELS, BUDGET_*: what channels may choose and the budgets' ceilings
   * (default: `models`' two alone, no budget); ADMIN_USER_IDS (default: none).
   */
  operator?: OperatorSettings | undefined;
  adminUserIds?: readonly string[] | undefined;
  /** Longest reply shown, in characters (default: core's). */
  maxReplyChars?: number | undefined;
  /** CHAT_SYSTEM_PROMPT, CHAT_MAX_TOKENS and the key of the per-user hash (default: core's). */
  conversation?: ConversationConfig | undefined;
  /** RETENTION_DAYS: old records are swept once the database is open (default: never). */
  retentionDays?: number | undefined;
  /** Jobs queued, refused, started and finished, for `/metrics` (default: none kept). */
  metrics?: Metrics | undefined;
  /**
   * With REDIS_URL: jobs go to this shared queue and users' places are counted across processes
   * (default: the in-process queue).
   */
  shared?: { queue: JobQueue; places: SharedPlaces } | undefined;
  /**
   * Whether this process runs the jobs (default: with the in-process queue yes, with a shared one
   * no, `genbot worker` processes do), and how many at once per lane.
   */
  worker?:
    | { concurrency?: Readonly<Record<JobLane, number>>; cancellations?: JobWorkerOptions['cancellations'] }
    | false
    | undefined;
}

export interface Jobs {
  /** The store jobs are recorded in (its threads keep Slack's thread cache). */
  store: Store;
  /** What the bots submit through, `/usage`, and the buttons under results. */
  botJobs: {
    intake: JobIntake;
    usage: LedgerUsageReporter;
    presses: ResultPresses;
    /** Each place's settings, and who may change them besides the platform's admins. */
    settings: PlaceSettings;
    adminUserIds: readonly string[];
  };
  /** The in-process queue, when jobs are not shared: tests and benchmarks wait for it to be idle. */
  inProcessQueue: InProcessJobQueue | undefined;
  /** `/readyz`: the database answers. */
  readiness: ReadinessCheck;
  /** Jobs waiting for a worker show their place in line through `surfaces` (`startWorker` does it too). */
  showPlacesOn(surfaces: readonly SurfaceFactory[]): void;
  /**
   * Jobs waiting for a worker show their place in line through `surfaces`; old records are swept;
   * and when this process runs jobs, the unfinished jobs of the surfaces' platforms are queued
   * again and then the queue's jobs are run. Resolves once jobs are taken (after the database opened).
   */
  startWorker(surfaces: readonly SurfaceFactory[]): Promise<void>;
  /** Stops taking jobs from the queue: first on shutdown, before the drain. */
  stopTaking: Stoppable;
  /** Closes the queue and the database: last, after the drain. */
  close: Stoppable;
}

/** Without CHAT_MODELS and IMAGE_MODELS: the one model of each, and no budget. */
function operatorOf(models: WorkerModels): OperatorSettings {
  return {
    chatModels: [models.chatModel],
    imageModels: [models.imageModel],
    chatModel: models.chatModel,
    imageModel: models.imageModel,
    systemPrompt: undefined,
    budgetImagesPerDay: undefined,
    budgetChatTokensPerDay: undefined,
  };
}

/**
 * The jobs of one process, composed once for every way genbot runs: the bots with in-process jobs,
 * the bots queuing on Redis, `genbot worker`, the playground, the tests and the benchmarks.
 */
export function openJobs(options: JobsOptions): Jobs {
  const { database, runtime, models, shared } = options;
  const { store } = database;
  const logger = options.logger.child({ component: 'jobs' });
  const quota = options.quota ?? NO_QUOTA;
  const metrics = options.metrics ?? noMetrics;
  const runsHere = options.worker === undefined ? shared === undefined : options.worker !== false;
  const taking = options.worker || {};
  const queue: JobQueue =
    shared?.queue ??
    new InProcessJobQueue({
      onHandlerError: (job, error) =>
        logger.error({ err: error, jobId: job.id }, 'job could not be run; kept for the next start'),
    });
  const inProcessQueue = queue instanceof InProcessJobQueue ? queue : undefined;
  const settings = new PlaceSettings({ store: store.settings, operator: options.operator ?? operatorOf(models) });
  const chatIntake = new ChatJobIntake({ store, queue, runtime, quota, logger, places: shared?.places, settings });
  const intake = options.metrics === undefined ? chatIntake : meteredIntake(chatIntake, options.metrics);
  let sweep: RetentionSweep | undefined;
  let queueClosed: Promise<void> | undefined;
  const closeQueue = () => (queueClosed ??= queue.close());
  return {
    store,
    inProcessQueue,
    botJobs: {
      intake,
      usage: new LedgerUsageReporter(store.usage, quota, settings),
      presses: new ResultPresses({ versions: store.versions, jobs: store.jobs, intake, logger }),
      settings,
      adminUserIds: options.adminUserIds ?? [],
    },
    readiness: databaseReadiness(store),
    showPlacesOn: (surfaces) => chatIntake.showPlacesOn(surfaces),
    startWorker(surfaces) {
      chatIntake.showPlacesOn(surfaces);
      const { retentionDays } = options;
      if (retentionDays !== undefined) {
        database.whenOpen(() => {
          sweep = startRetentionSweep({ store, retentionDays, logger });
        });
      }
      if (!runsHere) return Promise.resolve();
      const worker = new JobWorker({
        quota,
        store,
        runtime,
        surfaces,
        deps: {
          images: models.client,
          chat: models.client,
          config: {
            imageModel: models.imageModel,
            chatModel: models.chatModel,
            ...(options.maxReplyChars === undefined ? {} : { maxReplyChars: options.maxReplyChars }),
            ...options.conversation,
          },
          logger,
        },
        logger,
        cancellations: taking.cancellations,
      });
      const { handler, onGivenUp } =
        shared === undefined
          ? { handler: worker.handle, onGivenUp: undefined }
          : sharedQueueHandler({ worker, store, runtime, places: shared.places, metrics, logger });
      const concurrency = taking.concurrency ?? IN_PROCESS_CONCURRENCY;
      // Those that could not be queued again wait for the next start; the queue's jobs run either way.
      return new Promise((resolve) => {
        database.whenOpen(() => {
          void worker
            .resume(queue)
            .catch((error: unknown) => logger.error({ err: error }, 'could not queue unfinished jobs again'))
            .finally(() => {
              queue.process(handler, { concurrency, platforms: worker.platforms, onGivenUp });
              resolve();
            });
        });
      });
    },
    // A queue this process only submits to stays open until the bots have stopped: their last requests are still queued.
    stopTaking: { name: 'job queue', stop: () => (runsHere ? closeQueue() : Promise.resolve()) },
    close: {
      name: 'jobs database',
      stop: async () => {
        sweep?.stop();
        await closeQueue();
        await database.close();
      },
    },
  };
}
