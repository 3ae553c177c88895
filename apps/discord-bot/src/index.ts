export type { DiscordBot, DiscordBotOptions } from './bot.js';
export { startDiscordBot } from './bot.js';
export { registerCommands } from './register-commands.js';
