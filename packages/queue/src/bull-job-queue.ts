import type { JobHandler, JobLane, JobQueue, ProcessOptions, QueuedJob } from '@genbot/core/scheduling';
import { JOB_LANES, JobGivenUpError, JobHandedOverError, JobLeftForLaterError } from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import { DelayedError, type Job, Queue, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullJobId, queueName, readEntry, writeEntry } from './queue-entry.js';
import { commandConnection, reaching, workerConnection } from './redis-connection.js';

/**
 * The reason BullMQ fails a job with once it stalled more than
 * `maxStalledCount` times (its `moveStalledJobsToWait` script marks it, and
 * the next worker to take it fails it without running it).
 */
const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/** BullMQ's global rate limiter: at most `max` jobs of a queue start per `durationMs`, across all workers. */
export interface RateLimit {
  max: number;
  durationMs: number;
}

export interface BullJobQueueOptions {
  /** REDIS_URL. */
  url: string;
  /** Every platform this deploy runs: the queues `add` may write to and `position` looks in. */
  platforms: readonly string[];
  logger: Logger;
  /** Per lane, guarding the model service's rate (applies to each platform's queue of the lane). */
  rateLimits?: Partial<Record<JobLane, RateLimit>>;
  /** How long a worker's hold on a job lasts without renewal (default 30 s): a dead worker's job is taken again after it. */
  lockDurationMs?: number;
  /** How often workers look for jobs whose holder died (default 30 s). */
  stalledIntervalMs?: number;
  /** How many times a job may be taken again after its worker died before it fails (default 1). */
  maxStalledCount?: number;
  /** Finished jobs kept in Redis for inspection, per queue (default 100 completed, 500 failed). */
  history?: { completed: number; failed: number };
  /** A newer deploy's entries are put back for this long before an older worker looks again (default 30 s). */
  newerEntryDelayMs?: number;
  /** Aborts the signal of every running delivery (the process's drain deadline); each delivery has its own besides. */
  stopSignal?: AbortSignal;
}

/**
 * The JobQueue on BullMQ: one BullMQ queue per platform and lane. Per
 * platform, because a BullMQ worker takes whatever its queue holds, so a
 * process that answers only on Slack must listen on queues holding only Slack
 * jobs; per lane, because a worker's concurrency is per queue, so image and
 * stream jobs get their own limits and a long line of images never holds up
 * a stream. The rate limit is per queue too.
 */
export class BullJobQueue implements JobQueue {
  readonly #options: BullJobQueueOptions;
  readonly #connection: Redis;
  readonly #queues = new Map<string, Queue>();
  readonly #workers: Worker[] = [];
  /** The deliveries running here, by BullMQ job id: aborting one stops its run alone. */
  readonly #running = new Map<string, { jobId: string; controller: AbortController }>();
  /** Jobs given up on that are still being ended in the store: `close` waits for them. */
  readonly #givingUp = new Set<Promise<void>>();
  #workerConnection: Redis | undefined;

  constructor(options: BullJobQueueOptions) {
    for (const platform of options.platforms) {
      if (!/^[a-z0-9-]+$/.test(platform)) throw new RangeError(`Invalid platform name for a queue: ${platform}`);
    }
    this.#options = options;
    this.#connection = commandConnection(options.url);
    // Errors surface on the calls themselves; without a listener ioredis would report each reconnect attempt.
    this.#connection.on('error', () => undefined);
  }

  async add(job: QueuedJob, options: { firstTime?: boolean } = {}): Promise<void> {
    if (!this.#options.platforms.includes(job.platform)) {
      throw new RangeError(`Job ${job.id} is for ${job.platform}, which this deploy does not run`);
    }
    const queue = this.#queue(job.platform, job.lane);
    const { completed, failed } = this.#history();
    const jobId = bullJobId(job.id);
    await reaching(`job ${job.id} not queued`, async () => {
      // BullMQ keeps an ended job's id in its history and ignores an add under it; the store
      // says the job is not finished (a worker stopped mid-job), so it runs again.
      const state = options.firstTime === true ? 'unknown' : await queue.getJobState(jobId);
      if (state === 'failed' && (await queue.getJob(jobId))?.failedReason === STALLED_TOO_OFTEN) {
        throw new JobGivenUpError(job.id);
      }
      if (state === 'completed' || state === 'failed') await queue.remove(jobId);
      await queue.add(job.lane, writeEntry(job), {
        jobId,
        removeOnComplete: { count: completed },
        removeOnFail: { count: failed },
      });
    });
  }

  /** Resolves once this queue's own connection answers; rejects naming REDIS_URL while it does not. */
  async ping(): Promise<void> {
    await reaching('the job queue cannot be reached', () => this.#connection.ping());
  }

  process(handler: JobHandler, options: ProcessOptions): void {
    const connection = workerConnection(this.#options.url);
    connection.on('error', () => undefined);
    this.#workerConnection = connection;
    for (const platform of options.platforms) {
      for (const lane of JOB_LANES) {
        const worker = new Worker(queueName(platform, lane), (job, token) => this.#deliver(handler, job, token), {
          connection,
          concurrency: options.concurrency[lane],
          ...(this.#options.rateLimits?.[lane] === undefined
            ? {}
            : {
                limiter: {
                  max: this.#options.rateLimits[lane].max,
                  duration: this.#options.rateLimits[lane].durationMs,
                },
              }),
          lockDuration: this.#options.lockDurationMs ?? 30_000,
          stalledInterval: this.#options.stalledIntervalMs ?? 30_000,
          maxStalledCount: this.#options.maxStalledCount ?? 1,
        });
        worker.on('failed', (job, error) => {
          this.#options.logger.error({ err: error, jobId: job?.data?.id, lane, platform }, 'queued job failed');
          if (job !== undefined && error.message === STALLED_TOO_OFTEN) this.#givenUp(job, options);
        });
        // Fired when BullMQ found the lock of a job it runs here gone or another's (an event-loop stall or a
        // Redis hiccup outlasted it): another worker's stalled check may take the job, so this run stops.
        worker.on('lockRenewalFailed', (jobIds) => {
          for (const jobId of jobIds) this.#handOver(jobId, lane, platform);
        });
        worker.on('error', (error) => this.#options.logger.warn({ err: error, lane, platform }, 'job worker error'));
        this.#workers.push(worker);
      }
    }
  }

  async holds(job: QueuedJob): Promise<boolean> {
    const queue = this.#queue(job.platform, job.lane);
    const state = await reaching('cannot tell whether a job is queued', () => queue.getJobState(bullJobId(job.id)));
    // Active includes a job whose worker died: the stalled check hands it to another worker.
    return state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized';
  }

  async position(id: string): Promise<number | undefined> {
    const queues = this.#options.platforms.flatMap((platform) => JOB_LANES.map((lane) => this.#queue(platform, lane)));
    const place = await reaching('place in line unknown', () => placeInLine(this.#connection, queues, bullJobId(id)));
    return place < 0 ? undefined : place;
  }

  /** Stops taking jobs and waits for the running ones to end, then lets go of Redis. */
  async close(): Promise<void> {
    await Promise.all(this.#workers.splice(0).map((worker) => worker.close()));
    await Promise.all(this.#givingUp);
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
    this.#queues.clear();
    this.#workerConnection?.disconnect();
    this.#connection.disconnect();
  }

  async #deliver(handler: JobHandler, job: Job, token: string | undefined): Promise<void> {
    const entry = readEntry(job.data);
    if (entry.kind === 'invalid') {
      throw new UnrecoverableError(`Unreadable queue entry ${job.id}: ${entry.reason}`);
    }
    if (entry.kind === 'newer') {
      this.#options.logger.warn(
        { jobId: job.id, schema: entry.schema },
        'queue entry written by a newer deploy; left for a worker that reads it',
      );
      await job.moveToDelayed(Date.now() + (this.#options.newerEntryDelayMs ?? 30_000), token);
      throw new DelayedError();
    }
    const own = { jobId: entry.job.id, controller: new AbortController() };
    const bullId = job.id ?? bullJobId(entry.job.id);
    this.#running.set(bullId, own);
    const { stopSignal } = this.#options;
    const mine = own.controller.signal;
    const signal = stopSignal === undefined ? mine : AbortSignal.any([mine, stopSignal]);
    try {
      await handler({ job: entry.job, attempt: Math.max(1, job.attemptsStarted), signal });
    } catch (error) {
      if (!(error instanceof JobLeftForLaterError)) throw error;
      // Back in line for a worker that can run it; its recorded steps let that one resume it.
      if (error.afterMs <= 0) {
        await job.moveToWait(token);
        throw new WaitingError();
      }
      await job.moveToDelayed(Date.now() + error.afterMs, token);
      throw new DelayedError();
    } finally {
      if (this.#running.get(bullId) === own) this.#running.delete(bullId);
    }
  }

  /** Told by the one worker that failed the job, so the store ends it once. */
  #givenUp(job: Job, options: ProcessOptions): void {
    const entry = readEntry(job.data);
    if (entry.kind !== 'job' || options.onGivenUp === undefined) return;
    const ending = options
      .onGivenUp(entry.job)
      .catch((error: unknown) =>
        this.#options.logger.error({ err: error, jobId: entry.job.id }, 'could not end a job given up on'),
      )
      .finally(() => this.#givingUp.delete(ending));
    this.#givingUp.add(ending);
  }

  #handOver(bullId: string, lane: JobLane, platform: string): void {
    const running = this.#running.get(bullId);
    if (running === undefined || running.controller.signal.aborted) return;
    const { jobId } = running;
    this.#options.logger.warn({ jobId, lane, platform }, 'lost the hold on a running job: stopping it here');
    running.controller.abort(new JobHandedOverError(jobId));
  }

  #queue(platform: string, lane: JobLane): Queue {
    const name = queueName(platform, lane);
    let queue = this.#queues.get(name);
    if (queue === undefined) {
      queue = new Queue(name, { connection: this.#connection });
      queue.on('error', () => undefined);
      this.#queues.set(name, queue);
    }
    return queue;
  }

  #history(): { completed: number; failed: number } {
    return this.#options.history ?? { completed: 100, failed: 500 };
  }
}

/**
 * A job's place in line, read in one atomic step and one round trip whatever
 * the number of queues: KEYS are every queue's waiting list, then every
 * queue's active list. BullMQ pushes new jobs on the left of a waiting list
 * and workers take them from the right, so the place (1: next) is the length
 * minus the job's index; 0 when a worker holds it, -1 when neither.
 */
const PLACE_IN_LINE = `
local queues = #KEYS / 2
for i = 1, queues do
  local index = redis.call('LPOS', KEYS[i], ARGV[1])
  if index then return redis.call('LLEN', KEYS[i]) - index end
end
for i = queues + 1, #KEYS do
  if redis.call('LPOS', KEYS[i], ARGV[1]) then return 0 end
end
return -1`;

/**
 * Where a job stands among `queues`, asked of Redis itself. Reading the whole
 * list instead cost every mention of a busy replica a transfer as long as the
 * line; a call per queue, a round trip each.
 */
async function placeInLine(redis: Redis, queues: readonly Queue[], bullId: string): Promise<number> {
  // The queues share this connection: once they are ready, so is the connection.
  await Promise.all(queues.map((queue) => queue.waitUntilReady()));
  const keys = [...queues.map((queue) => queue.toKey('wait')), ...queues.map((queue) => queue.toKey('active'))];
  const place = await redis.eval(PLACE_IN_LINE, keys.length, ...keys, bullId);
  return typeof place === 'number' ? place : -1;
}
