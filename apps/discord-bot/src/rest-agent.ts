import { createRequire } from 'node:module';
import type { RESTOptions } from 'discord.js';

export type RestAgent = NonNullable<RESTOptions['agent']>;

/**
 * An HTTP agent from the very undici that discord.js's REST runs on (6.x).
 *
 * Still needed on Node 24 with core on undici 8 (checked November 2026: without
 * it every upload in test/discord fails). Without an agent, that REST sends
 * through the process-wide dispatcher, which is whichever undici loaded first;
 * core's undici gets there first and cannot send undici 6's multipart bodies,
 * so every upload fails. Giving the REST its own agent keeps each request
 * within one undici version. Drop it when @discordjs/rest moves to the undici
 * major that core uses.
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
