import { InMemoryThreadCache, type ThreadCache } from '@genbot/core/chat';
import { InMemorySeenKeys, type SeenKeys } from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import { type Metrics, noMetrics } from '@genbot/core/metrics';
import type { BotRuntime } from '@genbot/core/runtime';
import { type Logger as BoltLogger, webApi } from '@slack/bolt';
import { type BoltAuth, createBoltApp, startBoltApp, webClientOptions } from './app.js';
import { boltLogger } from './bolt-logger.js';
import { countDeliveries, countRateLimits, timeAcknowledgements } from './delivery-metrics.js';
import type { SlackConfig, SlackInstalls } from './config.js';
import { registerAiApps } from './handlers/ai-apps.js';
import { registerAppMention } from './handlers/app-mention.js';
import { registerDirectMessages } from './handlers/direct-message.js';
import { registerGenbotCommand } from './handlers/genbot-command.js';
import { registerImagineCommand } from './handlers/imagine-command.js';
import { registerMessageDeleted } from './handlers/message-deleted.js';
import { registerResultButtons } from './handlers/result-buttons.js';
import { registerThreadEvents } from './handlers/thread-events.js';
import { registerUnknownCommands } from './handlers/unknown-command.js';
import { registerUsageCommand } from './handlers/usage-command.js';
import type { ListenerContext, SlackJobs } from './handlers/context.js';
import { registerInstallEvents } from './handlers/install-events.js';
import { WorkspaceInstalls } from './install-provider.js';
import type { InstallationStore, ThreadCacheStore } from '@genbot/core/store';
import { StoredThreadCache, type SurfaceFactory } from '@genbot/core/jobs';
import { SLASH_COMMANDS } from './registrations.js';
import { whoAmI } from './who-am-i.js';
import { SettingsFormSeal } from './settings-form-seal.js';
import { workspaceRights } from './settings-rights.js';
import { WorkspaceAdmins } from './workspace-admins.js';
import { installedWorkspaces, SlackWorkspaces, workspaceParts } from './workspaces.js';

export interface SlackBotOptions {
  /** From `parseSlackEnv(env).bot`, or made up for an emulated Slack. */
  slack: SlackConfig;
  logger: Logger;
  /**
   * The jobs' runtime: work cancelled and drained, and the scheduler's
   * admission. The process's one runtime, so caps and shutdown hold for every
   * bot and worker on it.
   */
  runtime: BotRuntime;
  /** What the bot learns of its threads from events (default: kept in `threadStore`, else in this process's memory). */
  threads?: ThreadCache;
  /** Where the thread cache is kept across restarts (`thread_messages`), per workspace. */
  threadStore?: ThreadCacheStore;
  /** Where installations are kept: needed with installs (`slack.installs`). */
  installations?: InstallationStore;
  /**
   * The jobs floor: every request is recorded and queued through its intake
   * (a worker answers it with `SlackBot.surfaces`), and `/usage` answers from
   * its ledger.
   */
  jobs: SlackJobs;
  /** Events and mentions handled (default: in this process's memory; on Redis when replicas share the events). */
  seen?: SeenKeys;
  /** Deliveries received, acknowledgement times and 429s met, for `/metrics` (default: none kept). */
  metrics?: Metrics;
  /**
   * CHAT_TOOLS: whether a conversation can draw and edit (default: yes), so
   * the prompts a DM suggests and the Home tab offer only what works.
   */
  chatTools?: boolean | undefined;
}

export interface SlackBot {
  mode: 'http' | 'socket';
  /** What a job worker answers Slack jobs with. */
  surfaces: SurfaceFactory;
  /** The HTTP port listened on (useful with SLACK_PORT=0); undefined in Socket Mode. */
  port: number | undefined;
  /**
   * Stops receiving, drains the runtime (no new work, jobs waiting in line
   * turned away, replies in flight given `drainMs`, default 10 s, then
   * aborted, each leaving the restart note), then resolves. A shared runtime
   * is drained once, for every bot on it.
   */
  stop(options?: { drainMs?: number }): Promise<void>;
}

const DEFAULT_DRAIN_MS = 10_000;
/** A Slack ts is seconds since the epoch, with microseconds after the dot. */
function postedAt(ts: string): Date {
  const seconds = Number(ts);
  return Number.isFinite(seconds) ? new Date(seconds * 1000) : new Date();
}

function threadCache(store: ThreadCacheStore | undefined, workspaceId: string, logger: Logger): ThreadCache {
  if (store === undefined) return new InMemoryThreadCache();
  return new StoredThreadCache({ store, platform: 'slack', workspaceId, postedAt, logger });
}

/** What a bot is made of besides its listeners: its options, logs, client options and metrics. */
interface BotParts {
  options: SlackBotOptions;
  logger: Logger;
  libraryLogger: BoltLogger;
  clientOptions: webApi.WebClientOptions;
  metrics: Metrics;
}

/** Whom the bot answers, and how Bolt finds a delivery's token. */
interface Audience {
  workspaces: SlackWorkspaces;
  auth: BoltAuth;
  /** With installs: the installations, for the uninstall events. */
  installs: WorkspaceInstalls | undefined;
}

/** One bot token: its workspace, whose ids auth.test tells once at start. */
async function oneWorkspace(botToken: string, parts: BotParts): Promise<Audience> {
  const { options, logger, clientOptions, metrics } = parts;
  const client = new webApi.WebClient(botToken, clientOptions);
  countRateLimits(client, metrics);
  const identity = await whoAmI(client);
  const threads = options.threads ?? threadCache(options.threadStore, identity.teamId, logger);
  const recipe = { apiUrl: options.slack.apiUrl, streaming: options.slack.streaming, logger };
  const token = async () => botToken;
  return {
    workspaces: SlackWorkspaces.single(
      workspaceParts(identity.teamId, { ...recipe, client, token, identity, threads }),
    ),
    auth: { kind: 'token', botToken, identity },
    installs: undefined,
  };
}

/** Installs: every workspace the app is installed in, each met when its first delivery or job comes. */
function installedInto(config: SlackInstalls, parts: BotParts): Audience {
  const { options, logger, libraryLogger, clientOptions, metrics } = parts;
  if (options.installations === undefined) throw new Error('installs need the store of installations');
  const installs = new WorkspaceInstalls({
    installs: config,
    apiUrl: options.slack.apiUrl,
    store: options.installations,
    logger,
    libraryLogger,
    clientOptions,
  });
  const workspaces = installedWorkspaces({
    apiUrl: options.slack.apiUrl,
    streaming: options.slack.streaming,
    logger,
    installs,
    clientOptions,
    watch: (client) => countRateLimits(client, metrics),
    threads: (workspaceId) => options.threads ?? threadCache(options.threadStore, workspaceId, logger),
  });
  return {
    workspaces,
    auth: { kind: 'installs', authorize: installs.authorize, routes: installs.routes, port: config.port },
    installs,
  };
}

/**
 * Connects the bot to Slack (HTTP or Socket Mode, by configuration) and
 * turns `/imagine`, mentions and direct messages into jobs. With one bot
 * token it answers that workspace; with installs, each delivery and job is
 * answered with its own workspace's token. Resolves once it is receiving;
 * rejects when the token is refused or the port is taken.
 */
export async function startSlackBot(options: SlackBotOptions): Promise<SlackBot> {
  const { slack } = options;
  const logger = options.logger.child({ component: 'slack-bot' });
  const libraryLogger = boltLogger(options.logger);
  const clientOptions = webClientOptions(slack.apiUrl, libraryLogger);
  const metrics = options.metrics ?? noMetrics;
  const parts = { options, logger, libraryLogger, clientOptions, metrics };
  const { workspaces, auth, installs } =
    slack.installs === undefined ? await oneWorkspace(slack.botToken, parts) : installedInto(slack.installs, parts);
  const app = createBoltApp({ slack, auth, logger: libraryLogger, clientOptions });
  const { mode } = slack.connection;

  const { runtime } = options;
  // First, so every delivery is counted whichever listener takes it.
  countDeliveries(app, metrics);
  // Then each waits its turn of the loop: Bolt has acknowledged events already, commands wait a turn for theirs.
  app.use(async ({ next }) => {
    await runtime.turns.take();
    await next();
  });
  const shared = { runtime, logger, seen: options.seen ?? new InMemorySeenKeys(), jobs: options.jobs };
  const context: ListenerContext = {
    ...shared,
    at: async (origin) => {
      const parts = workspaces.of(origin);
      const { surface, client, threads } = parts;
      return { ...shared, surface, client, threads, identity: await parts.identity() };
    },
  };
  if (installs !== undefined) registerInstallEvents(app, { installs, workspaces, logger });
  registerImagineCommand(app, context);
  const rights = workspaceRights(new WorkspaceAdmins({ logger }), options.jobs.adminUserIds);
  registerUsageCommand(app, context, options.jobs, rights);
  registerGenbotCommand(app, context, options.jobs, {
    rights,
    // Every replica holds the connection's secret, so any of them can check a form another opened.
    seal: new SettingsFormSeal(
      slack.connection.mode === 'http' ? slack.connection.signingSecret : slack.connection.appToken,
    ),
  });
  registerResultButtons(app, context, options.jobs);
  registerUnknownCommands(app, context, SLASH_COMMANDS);
  registerAppMention(app, context);
  registerDirectMessages(app, context);
  registerMessageDeleted(app, context);
  registerThreadEvents(app, context);
  registerAiApps(app, context, { jobs: options.jobs, tools: options.chatTools ?? true, metrics, rights });
  app.error(async (error) => {
    logger.error({ err: error }, 'Slack listener failed');
  });

  const receiving = await startBoltApp(app, slack.connection, runtime.turns);
  if (receiving !== undefined) timeAcknowledgements(receiving.server, metrics);
  const port = receiving?.port;
  logger.info(
    { mode, port, streaming: slack.streaming, workspaces: installs === undefined ? 'one' : 'installed' },
    'Slack bot started',
  );

  let stopping: Promise<void> | undefined;
  const stop = async (drainMs: number): Promise<void> => {
    // Admission closes at once: nothing new starts, nothing waiting in line starts.
    runtime.close();
    // Receiving stops next, so Slack hands new events to another instance (or retries them later).
    await app.stop().catch((error: unknown) => logger.warn({ err: error }, 'Slack receiver did not stop cleanly'));
    const drained = await runtime.drain({ deadlineMs: drainMs });
    if (!drained.finishedInTime) logger.warn({ drainMs, ...drained }, 'replies still running at shutdown were stopped');
    logger.info('Slack bot stopped');
  };
  return {
    mode,
    port,
    surfaces: workspaces.surfaces(),
    stop: (stopOptions = {}) => {
      stopping ??= stop(stopOptions.drainMs ?? DEFAULT_DRAIN_MS);
      return stopping;
    },
  };
}
