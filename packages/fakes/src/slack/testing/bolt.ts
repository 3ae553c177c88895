import type { AddressInfo } from 'node:net';
import { App, LogLevel, type AppOptions } from '@slack/bolt';
import type { SlackFake } from '../server.js';

/**
 * A real Bolt app in HTTP mode wired to the fake: web client on `apiUrl` without retries, receiver on
 * a free loopback port that the fake delivers to.
 */
export async function startHttpBolt(
  slack: SlackFake,
  setup: (app: App) => void,
  options: Partial<AppOptions> = {},
): Promise<App> {
  const app = new App({
    token: slack.identity.botToken,
    signingSecret: slack.identity.signingSecret,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
    ...options,
  });
  setup(app);
  const server = await app.start({ port: 0, host: '127.0.0.1' });
  const { port } = server.address() as AddressInfo;
  slack.deliverTo(`http://127.0.0.1:${port}/slack/events`);
  return app;
}

/** A real Bolt app in Socket Mode; both web clients (API and apps.connections.open) point at the fake. */
export async function startSocketBolt(slack: SlackFake, setup: (app: App) => void): Promise<App> {
  const clientOptions = { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } };
  const app = new App({
    token: slack.identity.botToken,
    appToken: slack.identity.appToken,
    socketMode: true,
    logLevel: LogLevel.ERROR,
    clientOptions,
    installerOptions: { clientOptions },
  });
  setup(app);
  await app.start();
  return app;
}
