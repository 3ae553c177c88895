import type { DiscordConfig, Logger } from '@genbot/core';
import { REST, Routes } from 'discord.js';
import { imagineCommand } from './commands.js';
import { TOKEN_REJECTED } from './client.js';
import { DiscordCallError, toChatError } from './discord-errors.js';
import { createRestAgent } from './rest-agent.js';

/**
 * Overwrites the application's commands with ours: guild-scoped (instant, for
 * development) when a guild is given, global (propagates to every guild the
 * bot is in) otherwise.
 */
export async function putCommands(options: { rest: REST; applicationId: string; guildId?: string | undefined; logger: Logger }): Promise<void> {
  const { rest, applicationId, guildId, logger } = options;
  const route =
    guildId === undefined ? Routes.applicationCommands(applicationId) : Routes.applicationGuildCommands(applicationId, guildId);
  try {
    await rest.put(route, { body: [imagineCommand()] });
  } catch (error) {
    const mapped = toChatError(error);
    if (mapped instanceof DiscordCallError && mapped.status === 401) throw new Error(TOKEN_REJECTED);
    const reason = mapped instanceof Error ? mapped.message : String(mapped);
    throw new Error(`Could not register the /imagine command: ${reason}`);
  }
  logger.info({ scope: guildId === undefined ? 'global' : 'guild', guildId }, 'registered the /imagine command');
}

/** `pnpm discord register`: registers the commands without starting the bot. */
export async function registerCommands(options: { discord: DiscordConfig; guildId?: string; logger: Logger }): Promise<void> {
  const { token, applicationId, apiUrl } = options.discord;
  if (token === undefined) throw new Error('DISCORD_TOKEN is required to register commands.');
  if (applicationId === undefined) throw new Error('DISCORD_APPLICATION_ID is required to register commands.');
  const agent = createRestAgent();
  try {
    const rest = new REST({ api: apiUrl, agent }).setToken(token);
    await putCommands({ rest, applicationId, guildId: options.guildId, logger: options.logger });
  } finally {
    await agent.close();
  }
}
