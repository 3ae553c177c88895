import { type Client, Routes } from 'discord.js';
import { z } from 'zod';
import { createClient } from './client.js';
import { discordCall } from './discord-errors.js';
import type { RestAgent } from './rest-agent.js';
import type { MakeRequest } from './shared-rest-limit.js';

/** Who the bot is, as REST tells it: what a worker without a gateway needs to build surfaces. */
export interface BotIdentity {
  applicationId: string;
  selfId: string;
}

const identified = z.object({ id: z.string() });

/**
 * A discord.js client that never logs in: its REST (with the app's agent)
 * and its structures, no gateway. Channels, messages and webhooks work over
 * it; what it lacks in cache it reads over REST.
 */
export function createRestClient(options: {
  apiUrl: string;
  token: string;
  agent: RestAgent;
  makeRequest?: MakeRequest | undefined;
}): Client {
  const client = createClient({ ...options, withMessageContent: false });
  client.rest.setToken(options.token);
  return client;
}

/** The bot user and its application, read over REST (the application id from configuration when given). */
export async function identify(client: Client, applicationId?: string): Promise<BotIdentity> {
  const user = identified.parse(await discordCall(() => client.rest.get(Routes.user())));
  if (applicationId !== undefined) return { applicationId, selfId: user.id };
  const application = identified.parse(await discordCall(() => client.rest.get(Routes.currentApplication())));
  return { applicationId: application.id, selfId: user.id };
}
