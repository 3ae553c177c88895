import type { CoreConfig } from '@genbot/core/config';
import { envString } from '@genbot/core/config';
import { ConfigError } from '@genbot/core/errors';
import { createLogger, type Logger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import { registerCommands, type DiscordBot } from '@genbot/discord-bot';
import { startHealth } from '@genbot/health';
import type { SlackBot } from '@genbot/slack-bot';
import { ExitCode } from '../exit-codes.js';
import { openService } from '../service.js';
import { Opened } from '../wiring/closing.js';
import { startBots } from '../wiring/bots.js';
import { StoreConnection } from '../wiring/store-connection.js';
import type { LaunchCommand } from './args.js';
import { type LaunchConfig, parseLaunchConfig } from './config.js';
import { jobsOfCore, modelsOf } from './job-settings.js';
import type { LauncherIo, LaunchPlan } from './launch.js';
import { startLocalPlayground } from './playground-mode.js';
import { openSharedRedis } from './shared-redis.js';
import type { SharedState } from './shared-state.js';
import { StopTriggers, waitForShutdown } from './shutdown.js';
import { databaseLine, describeService, serviceLines } from './summary.js';
import { runWorker } from './worker-mode.js';

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
  const opened = new Opened();
  // A database only an operator can fix, or a bot that cannot start, ends the start-up here with
  // what was opened closed: nothing may keep the process alive.
  const { service, health, redis, connection, bots } = await opened.rollbackOnError(async () => {
    const service = opened.add(await openService(core.service, logger), (it) => it.close(), 'service');
    const health = opened.add(await startHealth(io.env), (it) => it.close(), 'health');
    const redis = shared && opened.add(await openSharedRedis(shared, logger), (it) => it.close(), 'redis');
    // One runtime for both bots: the scheduler's caps protect this process and its service quota,
    // whichever platform asks, and a stop closes admission for both at once. With REDIS_URL its
    // channel budget keeps pace with the other processes posting into the same channels.
    const runtime = new BotRuntime(
      redis === undefined ? {} : { pace: redis.pace, sharedCancellations: redis.cancellations },
    );
    const databaseUrl = shared?.databaseUrl ?? envString(io.env, 'DATABASE_URL');
    const connection = await StoreConnection.open(databaseUrl, logger.child({ component: 'jobs' }));
    const models = modelsOf(core, service);
    const bots = await startBots({
      ...jobsOfCore(core),
      database: connection,
      runtime,
      models,
      logger,
      metrics: health.metrics,
      // With REDIS_URL: jobs go to the shared queue, users' shares are counted across processes,
      // and `genbot worker` processes run the jobs.
      shared: redis && { queue: redis.queue({}), places: redis.places },
      slack: plan.slack && { slack: plan.slack, ...(redis !== undefined && { seen: redis.seen }) },
      // Every shard process and worker of the bot keeps to one global REST budget.
      discord: plan.discord && {
        discord: plan.discord,
        ...(redis !== undefined && { sharedRest: redis.pace }),
      },
    });
    return { service, health, redis, connection, bots };
  });
  health.addCheck(bots.jobs.readiness);
  if (redis !== undefined) health.addCheck(redis.readiness);
  const lines: string[] = [];
  if (bots.slack !== undefined) lines.push(`Slack: ${slackMode(bots.slack)}`);
  if (bots.discord !== undefined) lines.push(`Discord: ${discordMode(bots.discord, plan.discord?.applicationId)}`);
  if (redis !== undefined) lines.push('Jobs: queued on Redis (REDIS_URL) for "genbot worker" processes to run');
  lines.push(databaseLine(connection));
  if (health.server !== undefined) lines.push(`Health: /healthz, /readyz and /metrics at :${health.server.port}`);
  for (const line of [...lines, ...serviceLines(service, core)]) say(line);
  logger.info({ bots: lines, service: describeService(service) }, 'genbot started');
  return waitForShutdown({
    triggers,
    stages: [
      [{ name: 'readiness', stop: async () => health.beginDrain() }, ...bots.stages.admission],
      bots.stages.bots,
      bots.stages.jobs,
      // Last, in reverse order of opening: Redis, health, the service.
      ...opened.stages(),
    ],
    logger,
    stderr: io.stderr,
  });
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
  const opened = new Opened();
  const { service, local } = await opened.rollbackOnError(async () => {
    const service = opened.add(await openService(core.service, logger), (it) => it.close(), 'service');
    return { service, local: await startLocalPlayground({ core, plan, service, logger }) };
  });
  logger.info({ url: local.playground.url }, 'playground ready');
  for (const line of serviceLines(service, core)) say(line);
  say('Slack and Discord: emulated on this machine, both real bots connected');
  // Last, once everything is up, and set apart: the one line to act on, not lost among log lines.
  say(`\nPlayground: ${local.playground.url}\n`);
  const { stages } = local.bots;
  return waitForShutdown({
    triggers,
    stages: [
      [{ name: 'playground actions', stop: async () => local.playground.stopTakingWork() }, ...stages.admission],
      stages.bots,
      stages.jobs,
      ...local.closing,
      ...opened.stages(),
    ],
    logger,
    stderr: io.stderr,
  });
}
