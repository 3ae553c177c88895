import type { Logger } from '@genbot/core/log';
import type { Metrics } from '@genbot/core/metrics';
import type { BotRuntime } from '@genbot/core/runtime';
import { handedOver, type JobHandler, JobLeftForLaterError, type QueuedJob } from '@genbot/core/scheduling';
import { type Store, StoreUnavailableError } from '@genbot/core/store';
import type { JobWorker, SharedPlaces } from '@genbot/core/jobs';

/** A job met with the database away waits this long in the queue before a worker tries it again. */
const STORE_RETRY_MS = 5_000;

/**
 * What a worker on the shared queue does around each job: counts it for `/metrics`, hands a job it
 * cannot finish back to the queue (database away, worker stopping), and gives the user's place
 * back once the job ended here. `onGivenUp`: a job whose worker died or hung too often.
 */
export function sharedQueueHandler(options: {
  worker: JobWorker;
  store: Store;
  runtime: BotRuntime;
  places: SharedPlaces;
  metrics: Metrics;
  logger: Logger;
}): { handler: JobHandler; onGivenUp: (job: QueuedJob) => Promise<void> } {
  const { worker, store, runtime, places, metrics, logger } = options;
  const release = (job: QueuedJob) =>
    places.shares
      .release(job.lane, job.userId, job.id)
      .catch((error: unknown) => logger.warn({ err: error, jobId: job.id }, "could not give back the user's place"));
  const handler: JobHandler = async (delivery) => {
    const { job } = delivery;
    // For the metrics only: a database that cannot say is the job's own problem, met in handle().
    const taken = await store.jobs.get(job.id).catch(() => undefined);
    const startedAt = Date.now();
    if (taken !== undefined && taken.state === 'queued') {
      metrics.jobStarted({ kind: taken.kind, waitedSeconds: (startedAt - taken.createdAt.getTime()) / 1000 });
    }
    try {
      await worker.handle(delivery);
    } catch (error) {
      // The database cannot say what the job is: it stays recorded, and runs once the database is back.
      if (!(error instanceof StoreUnavailableError)) throw error;
      throw new JobLeftForLaterError(job.id, 'the database is unavailable', { afterMs: STORE_RETRY_MS, cause: error });
    }
    // The worker that took the job over ends it, and gives back the user's place then.
    if (handedOver(delivery.signal)) return;
    const record = await store.jobs.get(job.id);
    if (record !== undefined && record.state !== 'finished' && !runtime.accepting) {
      throw new JobLeftForLaterError(job.id, 'this worker is stopping');
    }
    if (record?.outcome !== undefined && taken?.state !== 'finished') {
      metrics.jobFinished({ kind: record.kind, outcome: record.outcome, seconds: (Date.now() - startedAt) / 1000 });
    }
    // Ended here: the user's place in line is free for their next request.
    await release(job);
  };
  // Ended as failed, and the user's place is free again.
  const onGivenUp = async (job: QueuedJob): Promise<void> => {
    await worker.giveUp(job);
    await release(job);
  };
  return { handler, onGivenUp };
}
