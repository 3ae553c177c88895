import { ConfigError, createLogger, JobScheduler, loadConfig, type AppConfig, type Logger } from '@genbot/core';
import { registerCommands, startDiscordBot, type DiscordBot } from '@genbot/discord-bot';
import { startSlackBot, type SlackBot } from '@genbot/slack-bot';
import { ExitCode } from '../exit-codes.js';
import { openService, type OpenService } from '../service.js';
import type { LaunchCommand } from './args.js';
import { startLocalPlayground } from './playground-mode.js';
import { ShutdownSignals, waitForShutdown, type Stoppable } from './shutdown.js';
import { describeService } from './summary.js';

export interface LauncherIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A start-up problem the person can fix: one line on stderr, exit 2. */
class LaunchRefused extends Error {}

/**
 * `genbot start | slack | discord | discord register`. Resolves with the exit status once stopped
 * by a signal (0) or once start-up failed.
 */
export async function runLauncher(
  command: LaunchCommand,
  io: LauncherIo = { env: process.env, stdout: process.stdout, stderr: process.stderr },
): Promise<ExitCode> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  let config: AppConfig;
  try {
    config = loadConfig(envFor(command, io.env));
    checkCompanions(command, config);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof LaunchRefused) {
      io.stderr.write(`genbot: ${oneLine(err.message)}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel, secrets: config.secrets });
  let signals: ShutdownSignals | undefined;

  try {
    if (command.kind === 'discord-register') {
      await registerCommands({ discord: config.discord, ...(command.guildId !== undefined && { guildId: command.guildId }), logger });
      say(
        command.guildId === undefined
          ? 'Registered /imagine globally (Discord may take a while to show it everywhere).'
          : `Registered /imagine in guild ${command.guildId}.`,
      );
      return ExitCode.ok;
    }
    const wantSlack = command.kind !== 'discord' && config.slack.botToken !== undefined;
    const wantDiscord = command.kind !== 'slack' && config.discord.token !== undefined;
    signals = new ShutdownSignals(io.stderr);
    if (command.kind === 'start' && !wantSlack && !wantDiscord) {
      return await runPlayground(config, logger, io, signals);
    }
    return await runBots(config, logger, io, signals, { slack: wantSlack, discord: wantDiscord });
  } catch (err) {
    signals?.dispose();
    // Start-up failed (token refused, port taken, service unreachable): one line, no stack.
    const message = err instanceof Error ? err.message : String(err);
    logger.debug({ err }, 'start-up failed');
    io.stderr.write(`genbot: could not start: ${oneLine(message)}\n`);
    return err instanceof ConfigError ? ExitCode.usage : ExitCode.unexpected;
  }
}

/** A single bot ignores the other platform's variables, so a half-configured one does not block it. */
function envFor(command: LaunchCommand, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const drop = command.kind === 'slack' ? /^DISCORD_/ : command.kind === 'start' ? undefined : /^SLACK_/;
  if (drop === undefined) return env;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !drop.test(name)));
}

function checkCompanions(command: LaunchCommand, config: AppConfig): void {
  if (command.kind === 'slack' && config.slack.botToken === undefined) {
    throw new LaunchRefused('SLACK_BOT_TOKEN is required to run the Slack bot (set it, or run "pnpm start" for the local playground).');
  }
  if (command.kind === 'discord' && config.discord.token === undefined) {
    throw new LaunchRefused('DISCORD_TOKEN is required to run the Discord bot (set it, or run "pnpm start" for the local playground).');
  }
  if (command.kind === 'discord-register') {
    if (config.discord.token === undefined) throw new LaunchRefused('DISCORD_TOKEN is required to register commands.');
    if (config.discord.applicationId === undefined) throw new LaunchRefused('DISCORD_APPLICATION_ID is required to register commands.');
  }
}

function oneLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

async function runBots(
  config: AppConfig,
  logger: Logger,
  io: LauncherIo,
  signals: ShutdownSignals,
  want: { slack: boolean; discord: boolean },
): Promise<ExitCode> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const service = await openService(config.service, logger);
  const models = { client: service.client, chatModel: config.service.chatModel, imageModel: config.service.imageModel };
  // One scheduler for both bots: the caps protect this process and its service quota, whichever platform asks.
  const scheduler = new JobScheduler();
  const started: Stoppable[] = [];
  const lines: string[] = [];
  const [slack, discord] = await Promise.allSettled([
    want.slack ? startSlackBot({ slack: config.slack, models, logger, scheduler }) : undefined,
    want.discord ? startDiscordBot({ discord: config.discord, models, logger, scheduler }) : undefined,
  ]);
  if (slack.status === 'fulfilled' && slack.value) {
    const bot = slack.value;
    started.push({ name: 'Slack bot', stop: (drainMs) => bot.stop({ drainMs }) });
    lines.push(`Slack: ${slackMode(bot)}`);
  }
  if (discord.status === 'fulfilled' && discord.value) {
    const bot = discord.value;
    started.push({ name: 'Discord bot', stop: (drainMs) => bot.stop({ drainMs }) });
    lines.push(`Discord: ${discordMode(bot, config)}`);
  }
  const failed = [slack, discord].find((result) => result.status === 'rejected');
  if (failed) {
    // The other one may be up already: take it down before reporting.
    await Promise.allSettled(started.map((part) => part.stop(0)));
    await service.close().catch(() => undefined);
    throw failed.reason;
  }
  for (const line of [...lines, ...serviceLines(service, config)]) say(line);
  logger.info({ bots: lines, service: describeService(service) }, 'genbot started');
  return waitForShutdown({ signals, stages: [started, [{ name: 'service', stop: () => service.close() }]], logger, stderr: io.stderr });
}

function slackMode(bot: SlackBot): string {
  return bot.mode === 'socket' ? 'Socket Mode (SLACK_APP_TOKEN)' : `HTTP mode, events, commands and interactivity at :${bot.port ?? '?'}/slack/events`;
}

function discordMode(bot: DiscordBot, config: AppConfig): string {
  const commands = config.discord.applicationId === undefined ? '/imagine not registered (set DISCORD_APPLICATION_ID)' : '/imagine registered globally';
  return `gateway connected as user ${bot.userId}; ${commands}`;
}

function serviceLines(service: OpenService, config: AppConfig): string[] {
  return [
    `Service: ${describeService(service)}`,
    `Models: chat ${config.service.chatModel}, images ${config.service.imageModel}`,
  ];
}

async function runPlayground(config: AppConfig, logger: Logger, io: LauncherIo, signals: ShutdownSignals): Promise<ExitCode> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const service = await openService(config.service, logger);
  let local;
  try {
    local = await startLocalPlayground({ config, service, logger });
  } catch (err) {
    await service.close().catch(() => undefined);
    throw err;
  }
  for (const line of serviceLines(service, config)) say(line);
  say('Slack and Discord: emulated on this machine, both real bots connected');
  say(`Playground: ${local.playground.url}`);
  logger.info({ url: local.playground.url }, 'playground ready');
  return waitForShutdown({
    signals,
    stages: [
      [{ name: 'playground actions', stop: async () => local.playground.stopTakingWork() }],
      local.bots,
      [{ name: 'playground', stop: () => local.playground.close() }],
      local.fakes,
      [{ name: 'service', stop: () => service.close() }],
    ],
    logger,
    stderr: io.stderr,
  });
}
