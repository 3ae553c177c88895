import { Client, GatewayIntentBits, type ClientOptions } from 'discord.js';
import type { DiscordFake } from './index.js';

/** Test support: a real discord.js client pointed at the fake, logged in and ready. */
export async function readyClient(discord: DiscordFake, options: Partial<ClientOptions> = {}): Promise<Client<true>> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    ...options,
    rest: { api: discord.apiUrl, ...options.rest },
  });
  const ready = new Promise<Client<true>>((resolve) => client.once('clientReady', resolve));
  await client.login(discord.botToken);
  return ready;
}
