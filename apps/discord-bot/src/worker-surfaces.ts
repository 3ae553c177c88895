import type { ChannelPace } from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import type { Metrics } from '@genbot/core/metrics';
import { countRateLimits } from './delivery-metrics.js';
import type { DiscordConfig } from './config.js';
import { restLimitOf } from './shared-rest-limit.js';
import { DiscordSurfaces } from './job-surfaces.js';
import { createRestAgent } from './rest-agent.js';
import { createRestClient, identify } from './rest-client.js';

export interface WorkerSurfaces {
  surfaces: DiscordSurfaces;
  close(): Promise<void>;
}

/**
 * Discord surfaces for a process that runs jobs without a gateway: REST only,
 * with the bot token of this process's configuration (jobs carry none).
 */
export async function connectDiscordSurfaces(
  discord: DiscordConfig,
  options: { sharedRest?: ChannelPace; logger?: Logger; metrics?: Metrics } = {},
): Promise<WorkerSurfaces> {
  const agent = createRestAgent();
  const client = createRestClient({
    apiUrl: discord.apiUrl,
    token: discord.token,
    agent,
    makeRequest: restLimitOf(discord, options.sharedRest, options.logger),
  });
  if (options.metrics !== undefined) countRateLimits(client, options.metrics);
  const close = async (): Promise<void> => {
    await client.destroy();
    await agent.close();
  };
  try {
    const identity = await identify(client, discord.applicationId);
    return { surfaces: new DiscordSurfaces({ client, ...identity }), close };
  } catch (error) {
    await close();
    throw error;
  }
}
