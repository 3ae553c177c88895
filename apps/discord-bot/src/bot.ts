import {
  CancellationRegistry,
  InFlightWork,
  JobScheduler,
  type ChatSurface,
  type DiscordConfig,
  type GenAiClient,
  type Logger,
} from '@genbot/core';
import { Events } from 'discord.js';
import { ChannelSurface } from './channel-surface.js';
import { connectClient } from './client.js';
import { toChatError } from './discord-errors.js';
import type { HandlerContext } from './handlers/context.js';
import { cancelOnDelete } from './handlers/deletions.js';
import { handleInteraction } from './handlers/interaction.js';
import { handleMessage } from './handlers/mention.js';
import { putCommands } from './register-commands.js';
import { createRestAgent } from './rest-agent.js';

export interface DiscordBotOptions {
  /** From loadConfig(env).discord; the token is required. */
  discord: DiscordConfig;
  models: { client: GenAiClient; chatModel: string; imageModel: string };
  logger: Logger;
  /**
   * Registering `/imagine` on start: by default when DISCORD_APPLICATION_ID is
   * set (globally); `{ guildId }` registers in that guild (instant, for
   * development); `false` never.
   */
  registerCommands?: { guildId?: string } | false;
  /**
   * Admission of model calls. Pass one shared by every bot of the process so
   * its caps hold per process; it is then the caller's to shut down. Without
   * it the bot makes its own with core's default limits and shuts it down in
   * `stop()`.
   */
  scheduler?: JobScheduler;
}

export interface DiscordBot {
  /** The bot user's ID. */
  userId: string;
  /**
   * Takes no new work, turns away jobs waiting in its own scheduler (not a
   * shared one), lets replies in flight finish (default 10 s), then disconnects.
   */
  stop(options?: { drainMs?: number }): Promise<void>;
}

const DEFAULT_DRAIN_MS = 10_000;

/** Connects to Discord and answers `/imagine` and mentions until stopped. */
export async function startDiscordBot(options: DiscordBotOptions): Promise<DiscordBot> {
  const { discord, models, logger } = options;
  if (discord.token === undefined) throw new Error('DISCORD_TOKEN is required to start the Discord bot.');
  const agent = createRestAgent();
  const client = await connectClient({ apiUrl: discord.apiUrl, token: discord.token, agent, logger }).catch(
    async (error: unknown) => {
      await agent.close();
      throw error;
    },
  );

  const scheduler = options.scheduler ?? new JobScheduler();
  const work = new InFlightWork();
  const context: HandlerContext = {
    work,
    // Shutdown reaches each job through the signal InFlightWork hands it.
    cancellations: new CancellationRegistry(),
    logger,
    depsFor: (surface: ChatSurface, log: Logger) => ({
      surface,
      images: models.client,
      chat: models.client,
      config: { imageModel: models.imageModel, chatModel: models.chatModel },
      logger: log,
      scheduler,
    }),
  };
  const channels = new ChannelSurface(client);
  client.on(Events.MessageCreate, (message) => handleMessage(message, channels, context));
  client.on(Events.InteractionCreate, (interaction) => handleInteraction(interaction, context));
  cancelOnDelete(client, context.cancellations, logger);
  client.on(Events.Error, (error) => logger.error({ err: toChatError(error) }, 'discord client error'));
  client.on(Events.Warn, (warning) => logger.warn({ warning }, 'discord client warning'));

  const registration = options.registerCommands ?? (discord.applicationId === undefined ? false : {});
  if (registration !== false) {
    try {
      await putCommands({
        rest: client.rest,
        applicationId: discord.applicationId ?? client.application.id,
        guildId: registration.guildId,
        logger,
      });
    } catch (error) {
      await client.destroy();
      await agent.close();
      throw error;
    }
  }
  logger.info({ userId: client.user.id, username: client.user.username }, 'discord bot ready');

  let stopped: Promise<void> | undefined;
  return {
    userId: client.user.id,
    stop(stopOptions = {}) {
      stopped ??= (async () => {
        // Jobs waiting in line are told to come back; a shared scheduler is left to its owner, other bots may still use it.
        if (options.scheduler === undefined) scheduler.shutdown();
        const finished = await work.drain(stopOptions.drainMs ?? DEFAULT_DRAIN_MS);
        await client.destroy();
        await agent.close();
        logger.info({ finishedInTime: finished }, 'discord bot stopped');
      })();
      return stopped;
    },
  };
}
