import type { CoreConfig } from '@genbot/core/config';
import { InProcessJobQueue, type JobQueue } from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import type { Metrics } from '@genbot/core/metrics';
import type { BotRuntime } from '@genbot/core/runtime';
import {
  ChatJobIntake,
  LedgerUsageReporter,
  meteredIntake,
  ResultPresses,
  type SharedPlaces,
  type SurfaceFactory,
} from '@genbot/core/jobs';
import type { ReadinessCheck } from '@genbot/health';
import type { SlackJobs } from '@genbot/slack-bot';
import { createJobWorker, sweepOnceOpen, takeJobsOnceOpen, type WorkerModels } from './job-worker-start.js';
import type { Stoppable } from './shutdown.js';
import { databaseReadiness, StoreConnection } from './store-connection.js';

/**
 * Jobs run in this process at once, per lane: the scheduler's own limits
 * decide what runs and what waits in line (with its place shown), so the
 * queue hands jobs over as soon as they come.
 */
const WORKER_CONCURRENCY = { image: 64, stream: 128 } as const;

export interface JobsFloor {
  connection: StoreConnection;
  /** What the bots (Slack and Discord) submit through, `/usage`, and the buttons under results. */
  botJobs: SlackJobs;
  /** `/readyz`: the database answers. */
  readiness: ReadinessCheck;
  /**
   * Starts the worker for the bots' surfaces; unfinished jobs of their platforms are resumed (once the
   * database is open). With a shared queue, only the retention sweep: `genbot worker` runs the jobs.
   * Either way, jobs that wait for a worker show their place in line through these surfaces.
   */
  startWorker(surfaces: readonly SurfaceFactory[]): void;
  /** Stops taking jobs from the queue: first on shutdown, before the drain. */
  stopTaking: Stoppable;
  /** Closes the database: last, after the drain. */
  close: Stoppable;
}

/**
 * The store (DATABASE_URL), the in-process queue, the intake and the worker,
 * composed for one process. Jobs run under the bots' runtime, so the drain
 * that stops the bots stops them too.
 */
export async function openJobsFloor(options: {
  core: CoreConfig;
  databaseUrl: string | undefined;
  runtime: BotRuntime;
  models: WorkerModels;
  logger: Logger;
  /** Jobs queued and refused, by reason, for `/metrics` (default: none kept). */
  metrics?: Metrics;
  /**
   * With REDIS_URL: jobs go to this shared queue, users' shares are counted
   * across processes, and `genbot worker` processes run the jobs, so this
   * process starts no worker of its own.
   */
  shared?: { queue: JobQueue; places: SharedPlaces } | undefined;
}): Promise<JobsFloor> {
  const { core, runtime, models, shared } = options;
  const logger = options.logger.child({ component: 'jobs' });
  const connection = await StoreConnection.open(options.databaseUrl, logger);
  const { store } = connection;
  const queue =
    shared?.queue ??
    new InProcessJobQueue({
      onHandlerError: (job, error) =>
        logger.error({ err: error, jobId: job.id }, 'job could not be run; kept for the next start'),
    });
  const chatIntake = new ChatJobIntake({ store, queue, runtime, quota: core.quota, logger, places: shared?.places });
  const intake = options.metrics === undefined ? chatIntake : meteredIntake(chatIntake, options.metrics);
  let sweep: { stop(): void } | undefined;
  return {
    connection,
    botJobs: {
      intake,
      usage: new LedgerUsageReporter(store.usage, core.quota),
      presses: new ResultPresses({ versions: store.versions, intake, logger }),
    },
    readiness: databaseReadiness(store),
    startWorker(surfaces) {
      // Jobs waiting for a worker (here, or in `genbot worker` processes) show their place through the bots.
      chatIntake.showPlacesOn(surfaces);
      sweep = sweepOnceOpen(connection, { core, logger });
      if (shared !== undefined) return;
      const worker = createJobWorker({ core, store, runtime, surfaces, models, logger });
      takeJobsOnceOpen(connection, {
        worker,
        queue,
        handler: worker.handle,
        process: { concurrency: WORKER_CONCURRENCY },
        logger,
      });
    },
    // A shared queue stays open until the bots have stopped: their last requests are still queued.
    stopTaking: { name: 'job queue', stop: () => (shared === undefined ? queue.close() : Promise.resolve()) },
    close: {
      name: 'database',
      stop: async () => {
        sweep?.stop();
        await shared?.queue.close();
        await connection.close();
      },
    },
  };
}
