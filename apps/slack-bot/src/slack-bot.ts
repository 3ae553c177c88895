import {
  CancellationRegistry,
  InFlightWork,
  JobScheduler,
  type ChatDeps,
  type ChatModel,
  type ImageModel,
  type Logger,
  type SlackConfig,
} from '@genbot/core';
import { webApi } from '@slack/bolt';
import { createBoltApp, DEFAULT_WEB_CLIENT_RETRIES, startBoltApp, webClientOptions } from './app.js';
import { boltLogger } from './bolt-logger.js';
import { RecentKeys } from './event-dedupe.js';
import { registerAppMention } from './handlers/app-mention.js';
import { registerImagineCommand } from './handlers/imagine-command.js';
import { registerMessageDeleted } from './handlers/message-deleted.js';
import { parseIdentity, type BotIdentity } from './parse-thread.js';
import { slackCall } from './slack-errors.js';
import { SlackSurface } from './surface.js';
import { UserDirectory } from './user-directory.js';

export interface SlackBotOptions {
  /** From `loadConfig(env).slack`; `botToken` is required. */
  slack: SlackConfig;
  /** A GenAiClient serves both images and chat. */
  models: { client: ImageModel & ChatModel; chatModel: string; imageModel: string };
  logger: Logger;
  /**
   * Web API retries after network errors and 5xx (default
   * DEFAULT_WEB_CLIENT_RETRIES, 2, with 0.25-2 s back-off). The library's own
   * default retries for about 30 minutes, far too long for a chat reply.
   */
  webClientRetries?: number;
  /**
   * Admission of model calls. Pass one shared by every bot of the process so
   * its caps hold per process; it is then the caller's to shut down. Without
   * it the bot makes its own with core's default limits and shuts it down in
   * `stop()`.
   */
  scheduler?: JobScheduler;
}

export interface SlackBot {
  mode: 'http' | 'socket';
  /** The HTTP port listened on (useful with SLACK_PORT=0); undefined in Socket Mode. */
  port: number | undefined;
  /**
   * Takes no new work, turns away jobs waiting in its own scheduler (not a
   * shared one), lets replies in flight finish (default up to 10 s, then they
   * are aborted), then closes.
   */
  stop(options?: { drainMs?: number }): Promise<void>;
}

const DEFAULT_DRAIN_MS = 10_000;
// Slack retries a lost event at once, after 1 min and after 5 min: remember event IDs a little longer.
const DEDUPE_TTL_MS = 10 * 60_000;

async function whoAmI(client: webApi.WebClient): Promise<BotIdentity> {
  const response = await slackCall('auth.test', () => client.auth.test());
  const identity = parseIdentity(response);
  if (!identity.ok) throw new Error(`Slack auth.test answered in an unexpected shape (${identity.problem})`);
  return identity.value;
}

/**
 * Connects the bot to Slack (HTTP or Socket Mode, by configuration) and
 * answers `/imagine` and mentions with the core use cases. Resolves once it is
 * receiving; rejects when the token is refused or the port is taken.
 */
export async function startSlackBot(options: SlackBotOptions): Promise<SlackBot> {
  const { slack, models } = options;
  const botToken = slack.botToken;
  if (botToken === undefined) throw new Error('The Slack bot needs SLACK_BOT_TOKEN.');
  const logger = options.logger.child({ component: 'slack-bot' });
  const libraryLogger = boltLogger(options.logger);
  const clientOptions = webClientOptions(slack.apiUrl, options.webClientRetries ?? DEFAULT_WEB_CLIENT_RETRIES, libraryLogger);
  const client = new webApi.WebClient(botToken, clientOptions);
  const identity = await whoAmI(client);
  const { app, mode } = createBoltApp({ slack, botToken, identity, logger: libraryLogger, clientOptions });

  const surface = new SlackSurface({
    client,
    identity,
    botToken,
    apiUrl: slack.apiUrl,
    users: new UserDirectory((user) => client.users.info({ user }), logger),
    streaming: slack.streaming,
    logger,
  });
  const scheduler = options.scheduler ?? new JobScheduler();
  const deps: ChatDeps = {
    surface,
    images: models.client,
    chat: models.client,
    config: { imageModel: models.imageModel, chatModel: models.chatModel },
    logger,
    scheduler,
  };
  const work = new InFlightWork();
  const context = {
    deps,
    surface,
    work,
    // Shutdown reaches each job through the signal InFlightWork hands it.
    cancellations: new CancellationRegistry(),
    identity,
    logger,
    seenEvents: new RecentKeys({ ttlMs: DEDUPE_TTL_MS }),
    seenMessages: new RecentKeys({ ttlMs: DEDUPE_TTL_MS }),
  };
  registerImagineCommand(app, context);
  registerAppMention(app, context);
  registerMessageDeleted(app, context);
  app.error(async (error) => {
    logger.error({ err: error }, 'Slack listener failed');
  });

  const port = await startBoltApp(app, mode, slack.port);
  logger.info({ mode, port, streaming: slack.streaming, botUserId: identity.userId }, 'Slack bot started');

  let stopping: Promise<void> | undefined;
  const stop = async (drainMs: number): Promise<void> => {
    // Receiving stops first, so Slack hands new events to another instance (or retries them later).
    await app.stop().catch((error: unknown) => logger.warn({ err: error }, 'Slack receiver did not stop cleanly'));
    // Jobs waiting in line are told to come back; a shared scheduler is left to its owner, other bots may still use it.
    if (options.scheduler === undefined) scheduler.shutdown();
    const inTime = await work.drain(drainMs);
    if (!inTime) logger.warn({ drainMs }, 'replies still running at shutdown were stopped');
    logger.info('Slack bot stopped');
  };
  return {
    mode,
    port,
    stop: (stopOptions = {}) => {
      stopping ??= stop(stopOptions.drainMs ?? DEFAULT_DRAIN_MS);
      return stopping;
    },
  };
}
