import type { Server } from 'node:http';
import type { LoopTurns } from '@genbot/core/time';
import { App, type Logger as BoltLogger, type webApi } from '@slack/bolt';
import type { SlackConfig, SlackConnection } from './config.js';
import type { BotIdentity } from './parse-thread.js';
import { takeTurns } from './request-turns.js';

/** Per-call timeout: an upload of a few images takes seconds, a hung connection must not hold a reply forever. */
const WEB_CLIENT_TIMEOUT_MS = 60_000;

export function webClientOptions(apiUrl: string, logger: BoltLogger): webApi.WebClientOptions {
  return {
    slackApiUrl: apiUrl,
    logger,
    timeout: WEB_CLIENT_TIMEOUT_MS,
    // Core is the one layer that retries a post, an edit or an upload (and a thread read or a
    // download); retrying here as well multiplied the attempts (up to 12 for one upload of megabytes).
    retryConfig: { retries: 0 },
    // A 429 is thrown at once (core waits and retries with the latest text) instead of pausing every call.
    rejectRateLimitedCalls: true,
  };
}

/**
 * The Bolt app: Socket Mode when an app token is set, else HTTP on
 * `/slack/events`. The bot's IDs are passed in (from our own auth.test), so
 * Bolt makes no unawaited auth.test call of its own. Events and commands are
 * acknowledged before the listeners run (`processBeforeResponse: false`).
 */
export function createBoltApp(input: {
  slack: SlackConfig;
  identity: BotIdentity;
  logger: BoltLogger;
  clientOptions: webApi.WebClientOptions;
}): App {
  const { slack, identity, logger, clientOptions } = input;
  const { connection } = slack;
  // The bot's own posts feed the thread cache: Bolt must not drop them. No conversation store:
  // nothing reads Bolt's per-conversation state, and its middleware cost every event a lookup.
  const common = {
    token: slack.botToken,
    botId: identity.botId,
    botUserId: identity.userId,
    logger,
    clientOptions,
    ignoreSelf: false,
    convoStore: false as const,
  };
  if (connection.mode === 'socket') {
    // apps.connections.open goes through the installer's client: it needs the API URL as well.
    return new App({ ...common, appToken: connection.appToken, socketMode: true, installerOptions: { clientOptions } });
  }
  return new App({ ...common, signingSecret: connection.signingSecret, processBeforeResponse: false });
}

/**
 * Starts receiving; answers the HTTP server and its port (0 in SLACK_PORT picks a free one),
 * none in Socket Mode. Requests take `turns` (`takeTurns`).
 */
export async function startBoltApp(
  app: App,
  connection: SlackConnection,
  turns: LoopTurns,
): Promise<{ server: Server; port: number } | undefined> {
  if (connection.mode === 'socket') {
    await app.start();
    return undefined;
  }
  // Bolt 5's HTTPReceiver resolves with the http.Server it listens on.
  const server = (await app.start({ port: connection.port })) as Server;
  takeTurns(server, turns);
  const address = server.address();
  return { server, port: typeof address === 'object' && address !== null ? address.port : connection.port };
}
