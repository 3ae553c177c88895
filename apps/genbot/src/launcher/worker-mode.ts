import type { CoreConfig } from '@genbot/core/config';
import {
  handedOver,
  type JobHandler,
  JobLeftForLaterError,
  JobScheduler,
  JOB_LANES,
  type QueuedJob,
} from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import { StoreUnavailableError } from '@genbot/core/store';
import { BotRuntime } from '@genbot/core/runtime';
import type { SurfaceFactory } from '@genbot/core/jobs';
import { connectDiscordSurfaces } from '@genbot/discord-bot';
import { type Health, startHealth } from '@genbot/health';
import type { RateLimit } from '@genbot/queue';
import { connectSlackSurfaces } from '@genbot/slack-bot';
import type { ExitCode } from '../exit-codes.js';
import { openService } from '../service.js';
import type { LaunchPlan } from './config.js';
import { createJobWorker, sweepOnceOpen, takeJobsOnceOpen } from './job-worker-start.js';
import { openRedisFloor } from './redis-floor.js';
import type { LauncherIo } from './run.js';
import { type StopTriggers, waitForShutdown } from './shutdown.js';
import { databaseReadiness, StoreConnection } from './store-connection.js';
import { databaseLine, describeService, serviceLines } from './summary.js';
import { giveWayToBots } from './worker-priority.js';

type WorkerPlan = Extract<LaunchPlan, { kind: 'worker' }>;

/** A job met with the database away waits this long in the queue before a worker tries it again. */
const STORE_RETRY_MS = 5_000;

/** Things opened in turn, closed in reverse when start-up fails part-way. */
class Opened {
  readonly #closers: (() => Promise<unknown>)[] = [];

  add<T>(thing: T, close: (thing: T) => Promise<unknown>): T {
    this.#closers.push(() => close(thing));
    return thing;
  }

  async closeAll(): Promise<void> {
    for (const close of this.#closers.splice(0).reverse()) await close().catch(() => undefined);
  }
}

/**
 * `genbot worker`: takes the jobs the bots queued on Redis (REDIS_URL) and
 * runs them with the platforms' API-only surfaces, any number of processes
 * side by side. A job whose worker died is taken again by another once its
 * hold lapses (JOB_LOCK_MS) and resumes from its recorded steps, so nothing
 * is posted twice. On SIGTERM it stops taking jobs, lets the running ones
 * finish within the drain, and hands the rest back to the queue.
 */
export async function runWorker(
  core: CoreConfig,
  plan: WorkerPlan,
  logger: Logger,
  io: LauncherIo,
  triggers: StopTriggers,
): Promise<ExitCode> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const niceness = giveWayToBots(logger);
  const opened = new Opened();
  let parts: Awaited<ReturnType<typeof openWorkerParts>>;
  try {
    parts = await openWorkerParts(core, plan, logger, io, opened);
  } catch (err) {
    await opened.closeAll();
    throw err;
  }
  const { service, health, redis, connection, runtime, surfaces } = parts;
  const { store } = connection;
  const { tuning } = plan;
  const queue = redis.queue({
    rateLimits: Object.fromEntries(
      Object.entries(tuning.perMinute).map(([lane, max]): [string, RateLimit] => [lane, { max, durationMs: 60_000 }]),
    ),
    lockDurationMs: tuning.lockMs,
    stalledIntervalMs: Math.max(500, Math.round(tuning.lockMs / 2)),
    // One more chance than BullMQ's default: a deploy may kill a worker mid-job, and then its successor.
    maxStalledCount: 2,
  });
  const worker = createJobWorker({
    core,
    store,
    runtime,
    surfaces,
    models: { client: service.client, imageModel: core.service.imageModel, chatModel: core.service.chatModel },
    logger,
    cancellations: redis.cancellations,
  });
  const handler: JobHandler = async (delivery) => {
    const { job } = delivery;
    // For the metrics only: a database that cannot say is the job's own problem, met in handle().
    const taken = await store.jobs.get(job.id).catch(() => undefined);
    const startedAt = Date.now();
    if (taken !== undefined && taken.state === 'queued') {
      health.metrics.jobStarted({ kind: taken.kind, waitedSeconds: (startedAt - taken.createdAt.getTime()) / 1000 });
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
      health.metrics.jobFinished({
        kind: record.kind,
        outcome: record.outcome,
        seconds: (Date.now() - startedAt) / 1000,
      });
    }
    // Ended here: the user's place in line is free for their next request.
    await redis.places.shares
      .release(job.lane, job.userId, job.id)
      .catch((error: unknown) => logger.warn({ err: error, jobId: job.id }, "could not give back the user's place"));
  };
  // Its worker died or hung mid-job too often: ended as failed, and the user's place is free again.
  const onGivenUp = async (job: QueuedJob): Promise<void> => {
    await worker.giveUp(job);
    await redis.places.shares
      .release(job.lane, job.userId, job.id)
      .catch((error: unknown) => logger.warn({ err: error, jobId: job.id }, "could not give back the user's place"));
  };
  const sweep = sweepOnceOpen(connection, { core, logger });
  takeJobsOnceOpen(connection, {
    worker,
    queue,
    handler,
    process: { concurrency: tuning.concurrency, onGivenUp },
    logger,
  });
  health.addCheck(redis.readiness);
  health.addCheck(databaseReadiness(store));

  const lines = [
    `Worker: ${worker.platforms.join(' and ')} jobs from Redis (REDIS_URL), up to ${tuning.concurrency.image} image and ${tuning.concurrency.stream} chat jobs at once`,
    databaseLine(connection),
  ];
  if (health.server !== undefined) lines.push(`Health: /healthz, /readyz and /metrics at :${health.server.port}`);
  for (const line of [...lines, ...serviceLines(service, core)]) say(line);
  logger.info({ platforms: worker.platforms, service: describeService(service), niceness }, 'genbot worker started');

  return waitForShutdown({
    triggers,
    stages: [
      [{ name: 'readiness', stop: async () => health.beginDrain() }],
      [
        // First: BullMQ takes no new job; the ones waiting stay in Redis for the other workers.
        { name: 'job queue', stop: () => queue.close() },
        {
          name: 'jobs',
          stop: async (drainMs) => {
            sweep.stop();
            const drained = await runtime.drain({ deadlineMs: drainMs });
            if (!drained.finishedInTime)
              logger.warn({ drainMs, ...drained }, 'jobs still running at shutdown were stopped');
          },
        },
      ],
      // Last, in reverse order of opening: the database, Redis, the platforms' clients, health, the service.
      [{ name: 'connections', stop: () => opened.closeAll() }],
    ],
    logger,
    stderr: io.stderr,
  });
}

async function openWorkerParts(core: CoreConfig, plan: WorkerPlan, logger: Logger, io: LauncherIo, opened: Opened) {
  const service = opened.add(await openService(core.service, logger), (it) => it.close());
  const health: Health = opened.add(await startHealth(io.env), (it) => it.close());
  const redis = opened.add(await openRedisFloor(plan.shared, logger), (it) => it.close());
  const connection = opened.add(await StoreConnection.open(plan.shared.databaseUrl, logger), (it) => it.close());
  const surfaces: SurfaceFactory[] = [];
  if (plan.slack !== undefined)
    surfaces.push(await connectSlackSurfaces(plan.slack, { logger, metrics: health.metrics }));
  if (plan.discord !== undefined) {
    const discord = opened.add(
      await connectDiscordSurfaces(plan.discord, { sharedRest: redis.pace, logger, metrics: health.metrics }),
      (it) => it.close(),
    );
    surfaces.push(discord.surfaces);
  }
  const { concurrency } = plan.tuning;
  // Admission happened at ingress (quota, the user's share): the worker's scheduler only
  // keeps its lanes to what BullMQ hands it, and never turns a job away for its user.
  const scheduler = new JobScheduler(
    Object.fromEntries(JOB_LANES.map((lane) => [lane, { concurrency: concurrency[lane], perUser: concurrency[lane] }])),
  );
  const runtime = new BotRuntime({ pace: redis.pace, scheduler });
  // A mention deleted while its job runs here: the bot that heard it tells every worker.
  await redis.cancellations.listen((trigger) => {
    if (runtime.cancel(trigger)) logger.info({ trigger }, 'trigger message deleted; its job is cancelled');
  });
  return { service, health, redis, connection, runtime, surfaces };
}
