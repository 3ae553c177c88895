import type { Server } from 'node:http';
import type { LoopTurns } from '@genbot/core/time';
import { App, type Authorize, type Logger as BoltLogger, type CustomRoute, type webApi } from '@slack/bolt';
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

/** How the Bolt app finds a delivery's token: the one bot token, or each workspace's installation. */
export type BoltAuth =
  | { kind: 'token'; botToken: string; identity: BotIdentity }
  | { kind: 'installs'; authorize: Authorize<boolean>; routes: CustomRoute[]; port: number };

/**
 * The Bolt app: Socket Mode when an app token is set, else HTTP on
 * `/slack/events`. With one bot token, the bot's IDs are passed in (from our
 * own auth.test), so Bolt makes no unawaited auth.test call of its own; with
 * installs, `authorize` finds each delivery's workspace, and the install
 * routes are served beside the events (in Socket Mode, on their own port).
 * Events and commands are acknowledged before the listeners run
 * (`processBeforeResponse: false`).
 */
export function createBoltApp(input: {
  slack: SlackConfig;
  auth: BoltAuth;
  logger: BoltLogger;
  clientOptions: webApi.WebClientOptions;
}): App {
  const { slack, auth, logger, clientOptions } = input;
  const { connection } = slack;
  // The bot's own posts feed the thread cache: Bolt must not drop them. No conversation store:
  // nothing reads Bolt's per-conversation state, and its middleware cost every event a lookup.
  const common = {
    ...(auth.kind === 'token'
      ? { token: auth.botToken, botId: auth.identity.botId, botUserId: auth.identity.userId }
      : { authorize: auth.authorize, customRoutes: auth.routes }),
    logger,
    clientOptions,
    ignoreSelf: false,
    convoStore: false as const,
  };
  if (connection.mode === 'socket') {
    // apps.connections.open goes through the installer's client: it needs the API URL as well.
    const installerOptions = { clientOptions, ...(auth.kind === 'installs' && { port: auth.port }) };
    return new App({ ...common, appToken: connection.appToken, socketMode: true, installerOptions });
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
