import { randomBytes } from 'node:crypto';
import type { CoreConfig } from '@genbot/core/config';
import type { Logger } from '@genbot/core/log';
import { BotRuntime } from '@genbot/core/runtime';
import { startDiscordBot } from '@genbot/discord-bot';
import { startDiscordFake, startSlackFake, type DiscordFake, type SlackFake } from '@genbot/fakes';
import { startPlayground, type Playground } from '@genbot/playground';
import { startSlackBot } from '@genbot/slack-bot';
import type { OpenService } from '../service.js';
import type { LaunchPlan } from './config.js';
import { type JobsFloor, openJobsFloor } from './jobs-floor.js';
import type { Stoppable } from './shutdown.js';
import { safeBase } from './summary.js';

export interface LocalPlayground {
  playground: Playground;
  /** Both bots' runtime: closed first on shutdown. */
  runtime: BotRuntime;
  /** A fresh database for this run (the fakes start empty each time): its queue stops with admission, it closes after the bots. */
  jobs: JobsFloor;
  /** Stopped together, first: they finish their replies against the fakes. */
  bots: Stoppable[];
  /** Closed after the playground sent its last state. */
  fakes: Stoppable[];
}

/**
 * No bot token: Slack and Discord emulated on loopback, the real bots connected to them, and the
 * page on PLAYGROUND_PORT. The fakes get random credentials so nothing else on the machine can
 * pose as them.
 */
export async function startLocalPlayground(options: {
  core: CoreConfig;
  plan: Extract<LaunchPlan, { kind: 'playground' }>;
  service: OpenService;
  logger: Logger;
}): Promise<LocalPlayground> {
  const { core, plan, service, logger } = options;
  const models = { client: service.client, chatModel: core.service.chatModel, imageModel: core.service.imageModel };
  // One runtime for both bots, as with real tokens: caps and shutdown are per process.
  const runtime = new BotRuntime();
  const secret = () => randomBytes(18).toString('hex');
  const stops: Stoppable[] = [];
  const fakes: Stoppable[] = [];
  // In memory: old jobs and buttons would point at messages the new fakes never had.
  const jobs = await openJobsFloor({ core, databaseUrl: 'sqlite::memory:', runtime, models, logger });
  const undo = async () => {
    await Promise.allSettled(stops.map((part) => part.stop(0)));
    await jobs.close.stop(0).catch(() => undefined);
    await Promise.allSettled(fakes.map((part) => part.stop(0)));
  };
  try {
    const [slackFake, discordFake] = await Promise.all([
      startSlackFake({ botToken: `xoxb-${secret()}`, signingSecret: secret(), botName: 'genbot' }),
      startDiscordFake({
        botToken: secret(),
        botUsername: 'genbot',
        guild: { name: 'genbot playground', channels: ['general'] },
      }),
    ]);
    fakes.push(
      { name: 'Slack emulator', stop: () => slackFake.close() },
      { name: 'Discord emulator', stop: () => discordFake.close() },
    );

    const [slackBot, discordBot] = await Promise.all([
      startSlackBot({
        slack: {
          botToken: slackFake.identity.botToken,
          connection: { mode: 'http', signingSecret: slackFake.identity.signingSecret, port: 0 },
          apiUrl: slackFake.apiUrl,
          streaming: plan.slackStreaming,
        },
        logger,
        runtime,
        jobs: jobs.botJobs,
        threadStore: jobs.connection.store.threads,
      }).then((bot) => {
        stops.push({ name: 'Slack bot', stop: (drainMs) => bot.stop({ drainMs }) });
        return bot;
      }),
      startDiscordBot({
        discord: { token: discordFake.botToken, applicationId: discordFake.applicationId, apiUrl: discordFake.apiUrl },
        logger,
        runtime,
        registerCommands: { guildId: discordFake.guildId },
        jobs: jobs.botJobs,
      }).then((bot) => {
        stops.push({ name: 'Discord bot', stop: (drainMs) => bot.stop({ drainMs }) });
        return bot;
      }),
    ]);
    if (slackBot.port === undefined) throw new Error('the Slack bot did not start in HTTP mode');
    slackFake.deliverTo(`http://127.0.0.1:${slackBot.port}/slack/events`);
    jobs.startWorker([slackBot.surfaces, discordBot.surfaces]);

    const playground = await startPlaygroundOn(plan.port, slackFake, discordFake, logger, {
      label: service.emulated ? 'offline emulator' : safeBase(service.baseUrl),
      emulated: service.emulated,
      chatModel: core.service.chatModel,
      imageModel: core.service.imageModel,
    });
    return { playground, runtime, jobs, bots: stops, fakes };
  } catch (err) {
    await undo();
    throw err;
  }
}

async function startPlaygroundOn(
  port: number,
  slack: SlackFake,
  discord: DiscordFake,
  logger: Logger,
  service: { label: string; emulated: boolean; chatModel: string; imageModel: string },
): Promise<Playground> {
  try {
    return await startPlayground({ port, slack, discord, logger, service });
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE') {
      throw new Error(`port ${port} is already in use: set PLAYGROUND_PORT to a free port`);
    }
    throw err;
  }
}
