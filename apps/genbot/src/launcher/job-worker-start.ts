import type { ChatModel, ImageModel } from '@genbot/core/surface';
import type { CoreConfig } from '@genbot/core/config';
import type { JobHandler, JobQueue, ProcessOptions } from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import type { BotRuntime } from '@genbot/core/runtime';
import type { Store } from '@genbot/core/store';
import {
  JobWorker,
  type JobWorkerOptions,
  type RetentionSweep,
  type SurfaceFactory,
  startRetentionSweep,
} from '@genbot/core/jobs';
import type { StoreConnection } from './store-connection.js';

/** The service's models, and which of them jobs use. */
export interface WorkerModels {
  client: ImageModel & ChatModel;
  imageModel: string;
  chatModel: string;
}

/** The job worker of a process (in-process jobs, or `genbot worker`): core's use cases on `models`. */
export function createJobWorker(options: {
  core: CoreConfig;
  store: Store;
  runtime: BotRuntime;
  surfaces: readonly SurfaceFactory[];
  models: WorkerModels;
  logger: Logger;
  cancellations?: JobWorkerOptions['cancellations'];
}): JobWorker {
  const { core, models, logger } = options;
  return new JobWorker({
    quota: core.quota,
    store: options.store,
    runtime: options.runtime,
    surfaces: options.surfaces,
    deps: {
      images: models.client,
      chat: models.client,
      config: {
        imageModel: models.imageModel,
        chatModel: models.chatModel,
        maxReplyChars: core.reply.maxChars,
        ...core.chat,
      },
      logger,
    },
    logger,
    cancellations: options.cancellations,
  });
}

/** The retention sweep of `RETENTION_DAYS`, from the moment the database is open. */
export function sweepOnceOpen(connection: StoreConnection, options: { core: CoreConfig; logger: Logger }) {
  let sweep: RetentionSweep | undefined;
  connection.whenOpen(() => {
    const { core, logger } = options;
    sweep = startRetentionSweep({ store: connection.store, retentionDays: core.retentionDays, logger });
  });
  return { stop: (): void => sweep?.stop() };
}

/**
 * Once the database is open: the jobs left unfinished are queued again, and
 * then the queue's jobs go to `handler`, whether or not queuing them again
 * succeeded (those it missed wait for the next start).
 */
export function takeJobsOnceOpen(
  connection: StoreConnection,
  options: {
    worker: JobWorker;
    queue: JobQueue;
    handler: JobHandler;
    process: Omit<ProcessOptions, 'platforms'>;
    logger: Logger;
  },
): void {
  const { worker, queue, logger } = options;
  connection.whenOpen(() => {
    void worker
      .resume(queue)
      .catch((error: unknown) => logger.error({ err: error }, 'could not queue unfinished jobs again'))
      .finally(() => queue.process(options.handler, { ...options.process, platforms: worker.platforms }));
  });
}
