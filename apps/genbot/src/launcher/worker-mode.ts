import type { CoreConfig } from '@genbot/core/config';
import type { SurfaceFactory } from '@genbot/core/jobs';
import type { Logger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import { JOB_LANES, JobScheduler } from '@genbot/core/scheduling';
import { connectDiscordSurfaces } from '@genbot/discord-bot';
import { startHealth } from '@genbot/health';
import type { RateLimit } from '@genbot/queue';
import { connectSlackSurfaces } from '@genbot/slack-bot';
import type { ExitCode } from '../exit-codes.js';
import { openService } from '../service.js';
import { Opened } from '../wiring/closing.js';
import { openJobs } from '../wiring/jobs.js';
import { StoreConnection } from '../wiring/store-connection.js';
import { jobsOfCore, modelsOf } from './job-settings.js';
import type { LauncherIo, LaunchPlan } from './launch.js';
import { openSharedRedis } from './shared-redis.js';
import { type StopTriggers, waitForShutdown } from './shutdown.js';
import { databaseLine, describeService, serviceLines } from './summary.js';
import { giveWayToBots } from './worker-priority.js';

type WorkerPlan = Extract<LaunchPlan, { kind: 'worker' }>;

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
  const { service, health, redis, connection, runtime, surfaces } = await opened.rollbackOnError(() =>
    openWorkerParts(core, plan, logger, io, opened),
  );
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
  const jobs = openJobs({
    ...jobsOfCore(core),
    database: connection,
    runtime,
    models: modelsOf(core, service),
    logger,
    metrics: health.metrics,
    shared: { queue, places: redis.places },
    worker: { concurrency: tuning.concurrency, cancellations: redis.cancellations },
  });
  void jobs.startWorker(surfaces);
  health.addCheck(redis.readiness);
  health.addCheck(jobs.readiness);

  const platforms = surfaces.map((surface) => surface.platform);
  const lines = [
    `Worker: ${platforms.join(' and ')} jobs from Redis (REDIS_URL), up to ${tuning.concurrency.image} image and ${tuning.concurrency.stream} chat jobs at once`,
    databaseLine(connection),
  ];
  if (health.server !== undefined) lines.push(`Health: /healthz, /readyz and /metrics at :${health.server.port}`);
  for (const line of [...lines, ...serviceLines(service, core)]) say(line);
  logger.info({ platforms, service: describeService(service), niceness }, 'genbot worker started');

  return waitForShutdown({
    triggers,
    stages: [
      [{ name: 'readiness', stop: async () => health.beginDrain() }],
      [
        // First: BullMQ takes no new job; the ones waiting stay in Redis for the other workers.
        jobs.stopTaking,
        {
          name: 'jobs',
          stop: async (drainMs) => {
            const drained = await runtime.drain({ deadlineMs: drainMs });
            if (!drained.finishedInTime)
              logger.warn({ drainMs, ...drained }, 'jobs still running at shutdown were stopped');
          },
        },
      ],
      [jobs.close],
      // Last, in reverse order of opening: Redis, the platforms' clients, health, the service.
      ...opened.stages(),
    ],
    logger,
    stderr: io.stderr,
  });
}

async function openWorkerParts(core: CoreConfig, plan: WorkerPlan, logger: Logger, io: LauncherIo, opened: Opened) {
  const service = opened.add(await openService(core.service, logger), (it) => it.close(), 'service');
  const health = opened.add(await startHealth(io.env), (it) => it.close(), 'health');
  const redis = opened.add(await openSharedRedis(plan.shared, logger), (it) => it.close(), 'redis');
  const surfaces: SurfaceFactory[] = [];
  if (plan.discord !== undefined) {
    const discord = opened.add(
      await connectDiscordSurfaces(plan.discord, { sharedRest: redis.pace, logger, metrics: health.metrics }),
      (it) => it.close(),
      'Discord client',
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
  // Opened last, and closed with the jobs: a start-up that fails before leaves no connection behind.
  const connection = await StoreConnection.open(plan.shared.databaseUrl, logger);
  if (plan.slack !== undefined) {
    // After the store: with installs, each job's token is looked up there.
    const installations = connection.store.installations;
    try {
      surfaces.unshift(await connectSlackSurfaces(plan.slack, { logger, metrics: health.metrics, installations }));
    } catch (error) {
      await connection.close();
      throw error;
    }
  }
  return { service, health, redis, connection, runtime, surfaces };
}
