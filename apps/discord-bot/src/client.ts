import type { Logger } from '@genbot/core';
import { Client, DiscordjsErrorCodes, Events, GatewayCloseCodes, GatewayIntentBits, type CloseEvent } from 'discord.js';
import { toChatError } from './discord-errors.js';
import type { RestAgent } from './rest-agent.js';

/** Never includes the token: start-up errors end up in terminals and CI logs. */
export const TOKEN_REJECTED = 'Discord rejected the bot token (DISCORD_TOKEN): check it in the Developer Portal (Bot > Token).';

const MESSAGE_CONTENT_MISSING =
  'The MessageContent intent is not enabled for this application: mentions still work, but thread context from ' +
  "other people's messages is unavailable. Enable it in the Developer Portal (Bot > Privileged Gateway Intents).";

export function createClient(apiUrl: string, agent: RestAgent, withMessageContent: boolean): Client {
  const intents = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages];
  return new Client({
    intents: withMessageContent ? [...intents, GatewayIntentBits.MessageContent] : intents,
    // REST lives under `${api}/v10`; the gateway address comes from GET /gateway/bot there.
    rest: { api: apiUrl, agent },
    // Model output may contain @everyone or <@id>: nothing we send pings anyone but the person answered.
    allowedMentions: { parse: [], repliedUser: true },
  });
}

type Login = { ok: true; client: Client<true> } | { ok: false; error: unknown; closeCode: number | undefined };

async function login(client: Client, token: string): Promise<Login> {
  let closeCode: number | undefined;
  const onDisconnect = (event: CloseEvent): void => {
    closeCode = event.code;
  };
  client.on(Events.ShardDisconnect, onDisconnect);
  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  try {
    await client.login(token);
    return { ok: true, client: await ready };
  } catch (error) {
    // login() destroys the client itself when it fails.
    return { ok: false, error, closeCode };
  } finally {
    client.off(Events.ShardDisconnect, onDisconnect);
  }
}

function isTokenRejection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === DiscordjsErrorCodes.TokenInvalid;
}

function startError(failed: Extract<Login, { ok: false }>): Error {
  if (failed.closeCode === GatewayCloseCodes.AuthenticationFailed || isTokenRejection(failed.error)) {
    return new Error(TOKEN_REJECTED);
  }
  const cause = toChatError(failed.error);
  const reason = cause instanceof Error ? cause.message : String(cause);
  const code = failed.closeCode === undefined ? '' : ` (gateway closed with ${failed.closeCode})`;
  return new Error(`Could not connect to Discord${code}: ${reason}`);
}

/**
 * Logs in and waits until the client is ready. A gateway refusing the
 * privileged MessageContent intent (4014) gets one retry without it: the bot
 * still answers mentions, whose content Discord always delivers.
 */
export async function connectClient(options: {
  apiUrl: string;
  token: string;
  agent: RestAgent;
  logger: Logger;
}): Promise<Client<true>> {
  const first = await login(createClient(options.apiUrl, options.agent, true), options.token);
  if (first.ok) return first.client;
  if (first.closeCode !== GatewayCloseCodes.DisallowedIntents) throw startError(first);
  options.logger.warn(MESSAGE_CONTENT_MISSING);
  const second = await login(createClient(options.apiUrl, options.agent, false), options.token);
  if (second.ok) return second.client;
  throw startError(second);
}
