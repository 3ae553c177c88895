export { parseDiscordEnv, type DiscordConfig, type DiscordEnv, type DiscordRegistrationConfig } from './config.js';
export type { DiscordBot, DiscordBotOptions } from './bot.js';
export { startDiscordBot } from './bot.js';
export { registerCommands } from './register-commands.js';
export { DiscordSurfaces, type DiscordSurfacesOptions } from './job-surfaces.js';
export { connectDiscordSurfaces, type WorkerSurfaces } from './worker-surfaces.js';
export { GLOBAL_REQUESTS_PER_SECOND, sharedRestLimit, type MakeRequest } from './shared-rest-limit.js';
