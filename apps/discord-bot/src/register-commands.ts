import type { Logger } from '@genbot/core/log';
import { REST, Routes } from 'discord.js';
import { allCommands } from './commands.js';
import { TOKEN_REJECTED } from './client.js';
import type { DiscordRegistrationConfig } from './config.js';
import { DiscordCallError, toChatError } from './discord-errors.js';
import { createRestAgent } from './rest-agent.js';

/**
 * Overwrites the application's commands with ours: guild-scoped (instant, for
 * development) when a guild is given, global otherwise (every guild the bot
 * is in, and wherever a person installed the app to their account).
 */
export async function putCommands(options: {
  rest: REST;
  applicationId: string;
  guildId?: string | undefined;
  logger: Logger;
}): Promise<void> {
  const { rest, applicationId, guildId, logger } = options;
  const route =
    guildId === undefined
      ? Routes.applicationCommands(applicationId)
      : Routes.applicationGuildCommands(applicationId, guildId);
  try {
    await rest.put(route, { body: allCommands(guildId === undefined ? 'global' : 'guild') });
  } catch (error) {
    const mapped = toChatError(error);
    if (mapped instanceof DiscordCallError && mapped.status === 401) throw new Error(TOKEN_REJECTED);
    const reason = mapped instanceof Error ? mapped.message : String(mapped);
    throw new Error(`Could not register the /imagine, /usage and Edit image commands: ${reason}`);
  }
  logger.info(
    { scope: guildId === undefined ? 'global' : 'guild', guildId },
    'registered the /imagine, /usage and Edit image commands',
  );
}

/** `pnpm discord register`: registers the commands without starting the bot. */
export async function registerCommands(options: {
  discord: DiscordRegistrationConfig;
  guildId?: string;
  logger: Logger;
}): Promise<void> {
  const { token, applicationId, apiUrl } = options.discord;
  const agent = createRestAgent();
  try {
    const rest = new REST({ api: apiUrl, agent }).setToken(token);
    await putCommands({ rest, applicationId, guildId: options.guildId, logger: options.logger });
  } finally {
    await agent.close();
  }
}
