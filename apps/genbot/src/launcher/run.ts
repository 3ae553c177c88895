import type { CoreConfig } from '@genbot/core/config';
import { ConfigError } from '@genbot/core/errors';
import { createLogger, type Logger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import { registerCommands, startDiscordBot, type DiscordBot } from '@genbot/discord-bot';
import { startSlackBot, type SlackBot } from '@genbot/slack-bot';
import { envString } from '@genbot/core/config';
import { type Health, startHealth } from '@genbot/health';
import { ExitCode } from '../exit-codes.js';
import { type JobsFloor, openJobsFloor } from './jobs-floor.js';
import { openService, type OpenService } from '../service.js';
import type { LaunchCommand } from './args.js';
import { type LaunchConfig, type LaunchPlan, parseLaunchConfig } from './config.js';
import { startLocalPlayground } from './playground-mode.js';
import { openRedisFloor, type RedisFloor } from './redis-floor.js';
import type { SharedState } from './shared-state.js';
import { runWorker } from './worker-mode.js';
import { StopTriggers, waitForShutdown, type Stoppable } from './shutdown.js';
import { databaseLine, describeService, serviceLines } from './summary.js';

export interface LauncherIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * `genbot start | slack | discord | discord register`. Resolves with the exit status once stopped
 * by a signal (0) or once start-up failed.
 */
export async function runLauncher(
  command: LaunchCommand,
  io: LauncherIo = { env: process.env, stdout: process.stdout, stderr: process.stderr },
): Promise<ExitCode> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  let config: LaunchConfig;
  try {
    config = parseLaunchConfig(command, io.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`genbot: ${oneLine(err.message)}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
  const logger = createLogger({ level: config.core.logLevel, secrets: config.secrets });
  const { core, plan } = config;
  let triggers: StopTriggers | undefined;

  try {
    if (plan.kind === 'register') {
      await registerCommands({
        discord: plan.discord,
        ...(plan.guildId !== undefined && { guildId: plan.guildId }),
        logger,
      });
      say(
        plan.guildId === undefined
          ? 'Registered /imagine globally (Discord may take a while to show it everywhere).'
          : `Registered /imagine in guild ${plan.guildId}.`,
      );
      return ExitCode.ok;
    }
    triggers = new StopTriggers(io.stderr, logger, io.env.npm_lifecycle_event !== undefined);
    if (plan.kind === 'playground') return await runPlayground(core, plan, logger, io, triggers);
    if (plan.kind === 'worker') return await runWorker(core, plan, logger, io, triggers);
    return await runBots(core, plan, config.shared, logger, io, triggers);
  } catch (err) {
    triggers?.dispose();
    // Start-up failed (token refused, port taken, service unreachable): one line, no stack.
    const message = err instanceof Error ? err.message : String(err);
    logger.debug({ err }, 'start-up failed');
    io.stderr.write(`genbot: could not start: ${oneLine(message)}\n`);
    return err instanceof ConfigError ? ExitCode.usage : ExitCode.unexpected;
  }
}

function oneLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

async function runBots(
  core: CoreConfig,
  plan: Extract<LaunchPlan, { kind: 'bots' }>,
  shared: SharedState | undefined,
  logger: Logger,
  io: LauncherIo,
  triggers: StopTriggers,
): Promise<ExitCode> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const service = await openService(core.service, logger);
  const models = { client: service.client, chatModel: core.service.chatModel, imageModel: core.service.imageModel };
  // One runtime for both bots: the scheduler's caps protect this process and its service quota,
  // whichever platform asks, and a stop closes admission for both at once. With REDIS_URL its
  // channel budget keeps pace with the other processes posting into the same channels.
  let parts: Awaited<ReturnType<typeof openBotParts>>;
  try {
    parts = await openBotParts(core, shared, models, logger, io);
  } catch (err) {
    // A database only an operator can fix ends the start-up here (openBotParts closed what it
    // opened): nothing may keep the process alive.
    await service.close().catch(() => undefined);
    throw err;
  }
  const { health, redis, runtime, jobs } = parts;
  health.addCheck(jobs.readiness);
  if (redis !== undefined) health.addCheck(redis.readiness);
  const started: Stoppable[] = [];
  const lines: string[] = [];
  const [slack, discord] = await Promise.allSettled([
    plan.slack &&
      startSlackBot({
        slack: plan.slack,
        logger,
        runtime,
        jobs: jobs.botJobs,
        ...(redis !== undefined && { seen: redis.seen }),
        threadStore: jobs.connection.store.threads,
        metrics: health.metrics,
      }),
    plan.discord &&
      startDiscordBot({
        discord: plan.discord,
        logger,
        runtime,
        jobs: jobs.botJobs,
        // Every shard process and worker of the bot keeps to one global REST budget.
        ...(redis !== undefined && { sharedRest: redis.pace }),
        metrics: health.metrics,
      }),
  ]);
  if (slack.status === 'fulfilled' && slack.value) {
    const bot = slack.value;
    started.push({ name: 'Slack bot', stop: (drainMs) => bot.stop({ drainMs }) });
    lines.push(`Slack: ${slackMode(bot)}`);
  }
  if (discord.status === 'fulfilled' && discord.value) {
    const bot = discord.value;
    started.push({ name: 'Discord bot', stop: (drainMs) => bot.stop({ drainMs }) });
    lines.push(`Discord: ${discordMode(bot, plan.discord?.applicationId)}`);
  }
  const failed = [slack, discord].find((result) => result.status === 'rejected');
  if (failed) {
    // The other one may be up already: take it down before reporting.
    await Promise.allSettled(started.map((part) => part.stop(0)));
    await jobs.close.stop(0).catch(() => undefined);
    await redis?.close().catch(() => undefined);
    await health.close().catch(() => undefined);
    await service.close().catch(() => undefined);
    throw failed.reason;
  }
  jobs.startWorker(
    [slack, discord].flatMap((result) =>
      result.status === 'fulfilled' && result.value ? [result.value.surfaces] : [],
    ),
  );
  if (redis !== undefined) lines.push('Jobs: queued on Redis (REDIS_URL) for "genbot worker" processes to run');
  lines.push(databaseLine(jobs.connection));
  if (health.server !== undefined) lines.push(`Health: /healthz, /readyz and /metrics at :${health.server.port}`);
  for (const line of [...lines, ...serviceLines(service, core)]) say(line);
  logger.info({ bots: lines, service: describeService(service) }, 'genbot started');
  return waitForShutdown({
    triggers,
    stages: [
      // Before anything else: no job starts from here on, not even one waiting in line; jobs not
      // started stay recorded for the next start.
      [
        { name: 'readiness', stop: async () => health.beginDrain() },
        { name: 'admission', stop: async () => runtime.close() },
        jobs.stopTaking,
      ],
      started,
      [jobs.close],
      [
        { name: 'service', stop: () => service.close() },
        { name: 'health', stop: () => health.close() },
        { name: 'redis', stop: async () => redis?.close() },
      ],
    ],
    logger,
    stderr: io.stderr,
  });
}

export /** Health, Redis (with REDIS_URL), the runtime and the jobs floor; on failure, what was opened is closed. */
async function openBotParts(
  core: CoreConfig,
  shared: SharedState | undefined,
  models: { client: OpenService['client']; chatModel: string; imageModel: string },
  logger: Logger,
  io: LauncherIo,
): Promise<{ health: Health; redis: RedisFloor | undefined; runtime: BotRuntime; jobs: JobsFloor }> {
  const health = await startHealth(io.env);
  let redis: RedisFloor | undefined;
  try {
    redis = shared === undefined ? undefined : await openRedisFloor(shared, logger);
    const runtime = new BotRuntime(
      redis === undefined ? {} : { pace: redis.pace, sharedCancellations: redis.cancellations },
    );
    const jobs = await openJobsFloor({
      core,
      metrics: health.metrics,
      databaseUrl: shared?.databaseUrl ?? envString(io.env, 'DATABASE_URL'),
      runtime,
      models,
      logger,
      shared: redis && { queue: redis.queue({}), places: redis.places },
    });
    return { health, redis, runtime, jobs };
  } catch (err) {
    await redis?.close().catch(() => undefined);
    await health.close().catch(() => undefined);
    throw err;
  }
}

function slackMode(bot: SlackBot): string {
  return bot.mode === 'socket'
    ? 'Socket Mode (SLACK_APP_TOKEN)'
    : `HTTP mode, events, commands and interactivity at :${bot.port ?? '?'}/slack/events`;
}

function discordMode(bot: DiscordBot, applicationId: string | undefined): string {
  const commands =
    applicationId === undefined
      ? '/imagine not registered (set DISCORD_APPLICATION_ID)'
      : '/imagine registered globally';
  const { ids, count } = bot.shards;
  // One process running the bot's only shard is the usual case, and says nothing about shards.
  const shards = count === 1 ? '' : `; shards ${ids.join(',')} of ${count}`;
  return `gateway connected as user ${bot.userId}${shards}; ${commands}`;
}

async function runPlayground(
  core: CoreConfig,
  plan: Extract<LaunchPlan, { kind: 'playground' }>,
  logger: Logger,
  io: LauncherIo,
  triggers: StopTriggers,
): Promise<ExitCode> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const service = await openService(core.service, logger);
  let local: Awaited<ReturnType<typeof startLocalPlayground>>;
  try {
    local = await startLocalPlayground({ core, plan, service, logger });
  } catch (err) {
    await service.close().catch(() => undefined);
    throw err;
  }
  for (const line of serviceLines(service, core)) say(line);
  say('Slack and Discord: emulated on this machine, both real bots connected');
  say(`Playground: ${local.playground.url}`);
  logger.info({ url: local.playground.url }, 'playground ready');
  return waitForShutdown({
    triggers,
    stages: [
      [
        { name: 'playground actions', stop: async () => local.playground.stopTakingWork() },
        { name: 'admission', stop: async () => local.runtime.close() },
        local.jobs.stopTaking,
      ],
      local.bots,
      [local.jobs.close, { name: 'playground', stop: () => local.playground.close() }],
      local.fakes,
      [{ name: 'service', stop: () => service.close() }],
    ],
    logger,
    stderr: io.stderr,
  });
}
