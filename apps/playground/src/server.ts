import type { Logger } from '@genbot/core/log';
import type { DiscordFake, SlackFake } from '@genbot/fakes';
import { SLASH_COMMANDS } from '@genbot/slack-bot/registrations';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { serveAssets } from './assets.js';
import { errorAnswer } from './errors.js';
import { listen } from './lifecycle.js';
import { LiveFeed } from './live-feed.js';
import { localOnly } from './local-only.js';
import { givePeopleTheirRoles, PEOPLE } from './people.js';
import { serveApi } from './routes.js';
import { discordDms, slackDms } from './direct-messages.js';
import {
  discordSnapshot,
  type ModelsUsed,
  slackSnapshot,
  type PlaygroundSnapshot,
  type ServiceInfo,
} from './snapshot.js';

export interface PlaygroundOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1: the page drives bots and shows their files, keep it on this machine. */
  host?: string;
  slack: SlackFake;
  discord: DiscordFake;
  logger: Logger;
  /** Shown in the page header; never carries a key. */
  service?: ServiceInfo;
  /** The slash commands the Slack app declares (default: the bot's, which its manifest declares). */
  slackCommands?: readonly string[];
  /** Slack channel shown (default C1, #general). */
  slackChannel?: string;
  /** Discord channel shown, by name or ID (default general). */
  discordChannel?: string;
  /** How often the Discord fake is checked for changes (it has no change events). Default 100 ms. */
  pollMs?: number;
  /** The models the latest calls to the service named (a channel's settings may choose another than the default). */
  modelsUsed?: () => ModelsUsed;
}

export interface Playground {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly port: number;
  /** The current state, as the page receives it. */
  snapshot(): PlaygroundSnapshot;
  /** Refuse new actions (503) from now on; the live feed keeps running so the page sees replies finish. */
  stopTakingWork(): void;
  /** Sends the final state to every open page, ends the feeds and closes the server. */
  close(): Promise<void>;
}

/** Starts the playground: a JSON API and live feed over the two fakes, and the page that uses them. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const { slack, discord, logger } = options;
  const log = logger.child({ component: 'playground' });
  const slackChannel = slack.workspace.resolveChannel(options.slackChannel ?? 'C1')?.id ?? 'C1';
  const discordChannel = discord.channelId(options.discordChannel ?? 'general');
  const service: ServiceInfo = options.service ?? { label: 'unknown', emulated: false };
  let closing = false;
  let closed = false;
  givePeopleTheirRoles(slack, discord);

  const feed = new LiveFeed({
    slack,
    discord,
    discordChannel,
    pollMs: options.pollMs ?? 100,
    render: (version) => ({
      version,
      closing,
      service,
      slack: slackSnapshot(
        slack,
        slackChannel,
        PEOPLE.map((person) => ({ name: person.name, id: person.slackId })),
      ),
      discord: discordSnapshot(
        discord,
        discordChannel,
        PEOPLE.map((person) => person.name),
      ),
      modelsUsed: options.modelsUsed?.() ?? {},
      slackDms: slackDms(slack, Date.now()),
      discordDms: discordDms(discord),
    }),
  });

  const app = new Hono();
  app.onError((err, c) => {
    const { status, message, from } = errorAnswer(err);
    if (status === 500) log.error({ err }, 'playground request failed');
    else log.debug({ err }, 'playground request refused');
    return c.json({ error: message, ...(from !== undefined && { from }) }, status);
  });
  app.use('*', localOnly(options.host !== undefined));
  serveAssets(app);
  app.get('/api/events', (c) => feed.stream(c));
  serveApi(app, {
    slack,
    discord,
    slackChannel,
    discordChannel,
    slackCommands: options.slackCommands ?? SLASH_COMMANDS,
    state: () => feed.current(),
    closing: () => closing,
    changed: () => feed.changed(),
  });

  const host = options.host ?? '127.0.0.1';
  const server = await listen(getRequestListener(app.fetch, { overrideGlobalObjects: false }), options.port, host);
  log.debug({ url: server.url }, 'playground listening');

  return {
    url: server.url,
    port: server.port,
    snapshot: () => feed.current(),
    stopTakingWork() {
      if (closing) return;
      closing = true;
      feed.changed();
    },
    async close() {
      if (closed) return;
      closed = true;
      closing = true;
      // One last state (the replies that finished while draining) to every page, then their feeds end.
      const ended = feed.end();
      await server.close();
      await ended;
    },
  };
}
