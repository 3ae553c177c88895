import { randomBytes } from 'node:crypto';
import { JobScheduler, type AppConfig, type Logger } from '@genbot/core';
import { startDiscordBot } from '@genbot/discord-bot';
import { startDiscordFake, startSlackFake, type DiscordFake, type SlackFake } from '@genbot/fakes';
import { startPlayground, type Playground } from '@genbot/playground';
import { startSlackBot } from '@genbot/slack-bot';
import type { OpenService } from '../service.js';
import type { Stoppable } from './shutdown.js';
import { safeBase } from './summary.js';

export interface LocalPlayground {
  playground: Playground;
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
export async function startLocalPlayground(options: { config: AppConfig; service: OpenService; logger: Logger }): Promise<LocalPlayground> {
  const { config, service, logger } = options;
  const models = { client: service.client, chatModel: config.service.chatModel, imageModel: config.service.imageModel };
  // One scheduler for both bots, as with real tokens: caps are per process.
  const scheduler = new JobScheduler();
  const secret = () => randomBytes(18).toString('hex');
  const stops: Stoppable[] = [];
  const fakes: Stoppable[] = [];
  const undo = async () => {
    await Promise.allSettled(stops.map((part) => part.stop(0)));
    await Promise.allSettled(fakes.map((part) => part.stop(0)));
  };
  try {
    const [slackFake, discordFake] = await Promise.all([
      startSlackFake({ botToken: `xoxb-${secret()}`, signingSecret: secret(), botName: 'genbot' }),
      startDiscordFake({ botToken: secret(), botUsername: 'genbot', guild: { name: 'genbot playground', channels: ['general'] } }),
    ]);
    fakes.push({ name: 'Slack emulator', stop: () => slackFake.close() }, { name: 'Discord emulator', stop: () => discordFake.close() });

    const [slackBot, discordBot] = await Promise.all([
      startSlackBot({
        slack: {
          botToken: slackFake.identity.botToken,
          signingSecret: slackFake.identity.signingSecret,
          apiUrl: slackFake.apiUrl,
          port: 0,
          streaming: config.slack.streaming,
        },
        models,
        logger,
        scheduler,
      }).then((bot) => {
        stops.push({ name: 'Slack bot', stop: (drainMs) => bot.stop({ drainMs }) });
        return bot;
      }),
      startDiscordBot({
        discord: { token: discordFake.botToken, applicationId: discordFake.applicationId, apiUrl: discordFake.apiUrl },
        models,
        logger,
        scheduler,
        registerCommands: { guildId: discordFake.guildId },
      }).then((bot) => {
        stops.push({ name: 'Discord bot', stop: (drainMs) => bot.stop({ drainMs }) });
        return bot;
      }),
    ]);
    if (slackBot.port === undefined) throw new Error('the Slack bot did not start in HTTP mode');
    slackFake.deliverTo(`http://127.0.0.1:${slackBot.port}/slack/events`);
    void discordBot;

    const playground = await startPlaygroundOn(config.playgroundPort, slackFake, discordFake, logger, {
      label: service.emulated ? 'offline emulator' : safeBase(service.baseUrl),
      emulated: service.emulated,
      chatModel: config.service.chatModel,
      imageModel: config.service.imageModel,
    });
    return { playground, bots: stops, fakes };
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

