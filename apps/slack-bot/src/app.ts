import type { Server } from 'node:http';
import type { SlackConfig } from '@genbot/core';
import { App, type Logger as BoltLogger, type webApi } from '@slack/bolt';
import type { BotIdentity } from './parse-thread.js';

export type SlackMode = 'http' | 'socket';

/**
 * Web API retries for network errors and 5xx when the caller sets none. The
 * library's default keeps retrying for about 30 minutes, far past the point
 * where a reply is useful; core retries a failed call a few more times on its
 * own, so two quick retries here are enough.
 */
export const DEFAULT_WEB_CLIENT_RETRIES = 2;

/** Per-call timeout: an upload of a few images takes seconds, a hung connection must not hold a reply forever. */
const WEB_CLIENT_TIMEOUT_MS = 60_000;

export function webClientOptions(apiUrl: string, retries: number, logger: BoltLogger): webApi.WebClientOptions {
  return {
    slackApiUrl: apiUrl,
    logger,
    timeout: WEB_CLIENT_TIMEOUT_MS,
    retryConfig: { retries, factor: 2, minTimeout: 250, maxTimeout: 2_000, randomize: true },
    // A 429 is thrown at once (core waits and retries with the latest text) instead of pausing every call.
    rejectRateLimitedCalls: true,
  };
}

export function modeOf(slack: SlackConfig): SlackMode {
  if (slack.appToken !== undefined) return 'socket';
  if (slack.signingSecret === undefined) {
    throw new Error('Slack HTTP mode needs SLACK_SIGNING_SECRET (or set SLACK_APP_TOKEN for Socket Mode).');
  }
  return 'http';
}

/**
 * The Bolt app: Socket Mode when an app token is set, else HTTP on
 * `/slack/events`. The bot's IDs are passed in (from our own auth.test), so
 * Bolt makes no unawaited auth.test call of its own. Events and commands are
 * acknowledged before the listeners run (`processBeforeResponse: false`).
 */
export function createBoltApp(input: {
  slack: SlackConfig;
  botToken: string;
  identity: BotIdentity;
  logger: BoltLogger;
  clientOptions: webApi.WebClientOptions;
}): { app: App; mode: SlackMode } {
  const { slack, botToken, identity, logger, clientOptions } = input;
  const mode = modeOf(slack);
  const common = { token: botToken, botId: identity.botId, botUserId: identity.userId, logger, clientOptions };
  if (mode === 'socket') {
    // apps.connections.open goes through the installer's client: it needs the API URL as well.
    const app = new App({ ...common, appToken: slack.appToken, socketMode: true, installerOptions: { clientOptions } });
    return { app, mode };
  }
  const app = new App({ ...common, signingSecret: slack.signingSecret, processBeforeResponse: false });
  return { app, mode };
}

/** Starts receiving; answers the HTTP port (0 in SLACK_PORT picks a free one). */
export async function startBoltApp(app: App, mode: SlackMode, port: number): Promise<number | undefined> {
  if (mode === 'socket') {
    await app.start();
    return undefined;
  }
  // Bolt 5's HTTPReceiver resolves with the http.Server it listens on.
  const server = (await app.start({ port })) as Server;
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}
