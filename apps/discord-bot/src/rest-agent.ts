import { createRequire } from 'node:module';
import type { RESTOptions } from 'discord.js';

export type RestAgent = NonNullable<RESTOptions['agent']>;

/**
 * An HTTP agent from the very undici that discord.js's REST runs on (6.x).
 *
 * Without an agent, that REST sends through the process-wide dispatcher,
 * which is whichever undici loaded first; core's undici 7 gets there first and
 * cannot send undici 6's multipart bodies ("action is not a function"), so
 * every upload fails. Giving the REST its own agent keeps each request within
 * one undici version, whatever else the process loads.
 */
export function createRestAgent(): RestAgent {
  const fromApp = createRequire(import.meta.url);
  const fromDiscordJs = createRequire(fromApp.resolve('discord.js'));
  const fromRest = createRequire(fromDiscordJs.resolve('@discordjs/rest'));
  const undici: unknown = fromRest('undici');
  if (typeof undici !== 'object' || undici === null || !('Agent' in undici) || typeof undici.Agent !== 'function') {
    throw new Error("could not load the undici that discord.js's REST uses");
  }
  const Agent = undici.Agent as new () => RestAgent;
  return new Agent();
}
