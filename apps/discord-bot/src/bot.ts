import type { ChannelPace } from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import type { Metrics } from '@genbot/core/metrics';
import type { BotRuntime } from '@genbot/core/runtime';
import { Events } from 'discord.js';
import type { SurfaceFactory } from '@genbot/core/jobs';
import { connectClient } from './client.js';
import type { DiscordConfig } from './config.js';
import { countDeliveries, countRateLimits } from './delivery-metrics.js';
import { toChatError } from './discord-errors.js';
import type { DiscordJobs, IngressContext } from './handlers/context.js';
import { cancelOnDelete } from './handlers/deletions.js';
import { EditTargets } from './handlers/edit-targets.js';
import { handleInteraction } from './handlers/interaction.js';
import { handleMessage } from './handlers/mention.js';
import { DiscordSurfaces } from './job-surfaces.js';
import { putCommands } from './register-commands.js';
import { createRestAgent } from './rest-agent.js';
import { createRestClient } from './rest-client.js';
import { restLimitOf } from './shared-rest-limit.js';

export interface DiscordBotOptions {
  /** From `parseDiscordEnv(env).bot`, or made up for an emulated Discord. */
  discord: DiscordConfig;
  logger: Logger;
  /**
   * The jobs' runtime: work cancelled and drained, and the scheduler's
   * admission. The process's one runtime, so caps and shutdown hold for every
   * bot and worker on it.
   */
  runtime: BotRuntime;
  /**
   * The jobs floor: every request is recorded and queued through its intake
   * (a worker answers it with `DiscordBot.surfaces`), `/usage` answers from
   * its ledger, and `presses` checks the buttons under results and their forms.
   */
  jobs: DiscordJobs;
  /**
   * Registering `/imagine` and `/usage` on start: by default when DISCORD_APPLICATION_ID is
   * set (globally); `{ guildId }` registers in that guild (instant, for
   * development); `false` never.
   */
  registerCommands?: { guildId?: string } | false;
  /**
   * With REDIS_URL: the pace every process of the bot shares, so their REST
   * requests together stay within Discord's per-bot global limit.
   */
  sharedRest?: ChannelPace;
  /** Gateway events received and REST 429s met, for `/metrics` (default: none kept). */
  metrics?: Metrics;
}

export interface DiscordBot {
  /** The bot user's ID. */
  userId: string;
  /** The gateway shards this process runs, of `count` over every process of the bot. */
  shards: { ids: readonly number[]; count: number };
  /** What a job worker in this process answers Discord jobs with (REST only, no gateway). */
  surfaces: SurfaceFactory;
  /**
   * Drains the runtime (no new work, jobs waiting in line turned away,
   * replies in flight given `drainMs`, default 10 s, then aborted, each
   * leaving the restart note), then disconnects. The gateway stays up while
   * draining, so a deleted mention still cancels its reply. A shared runtime
   * is drained once, for every bot on it.
   */
  stop(options?: { drainMs?: number }): Promise<void>;
}

const DEFAULT_DRAIN_MS = 10_000;

/**
 * Connects to Discord and turns `/imagine`, `/usage`, mentions, the buttons
 * under results, their edit forms and Edit image into jobs (or private
 * answers) until stopped.
 */
export async function startDiscordBot(options: DiscordBotOptions): Promise<DiscordBot> {
  const { discord, logger, runtime, jobs } = options;
  const agent = createRestAgent();
  const makeRequest = restLimitOf(discord, options.sharedRest, logger);
  const client = await connectClient({
    apiUrl: discord.apiUrl,
    token: discord.token,
    agent,
    logger,
    makeRequest,
    ...(discord.shards && { shards: discord.shards }),
  }).catch(async (error: unknown) => {
    await agent.close();
    throw error;
  });

  // The jobs' own client: REST only, as a worker elsewhere would have it.
  const worker = createRestClient({ apiUrl: discord.apiUrl, token: discord.token, agent, makeRequest });
  const surfaces = new DiscordSurfaces({
    client: worker,
    applicationId: discord.applicationId ?? client.application.id,
    selfId: client.user.id,
  });
  const context: IngressContext = {
    ...jobs,
    notices: runtime.notices,
    turns: runtime.turns,
    editTargets: new EditTargets(),
    logger,
  };
  if (options.metrics !== undefined) {
    countDeliveries(client, options.metrics);
    countRateLimits(client, options.metrics);
    countRateLimits(worker, options.metrics);
  }
  client.on(Events.MessageCreate, (message) => handleMessage(message, context));
  client.on(Events.InteractionCreate, (interaction) => handleInteraction(interaction, context));
  cancelOnDelete(client, runtime, jobs.intake, logger);
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
      await worker.destroy();
      await agent.close();
      throw error;
    }
  }
  logger.info(
    { userId: client.user.id, username: client.user.username, shards: client.options.shards },
    'discord bot ready',
  );

  let stopped: Promise<void> | undefined;
  const { shards, shardCount } = client.options;
  return {
    userId: client.user.id,
    // Settled by login: 'auto' has become the ids it started.
    shards: { ids: Array.isArray(shards) ? shards : [], count: shardCount ?? 1 },
    surfaces,
    stop(stopOptions = {}) {
      stopped ??= (async () => {
        const drained = await runtime.drain({ deadlineMs: stopOptions.drainMs ?? DEFAULT_DRAIN_MS });
        await client.destroy();
        await worker.destroy();
        await agent.close();
        logger.info(drained, 'discord bot stopped');
      })();
      return stopped;
    },
  };
}
