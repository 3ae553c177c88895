import type { Logger } from '@genbot/core/log';
import {
  Client,
  DiscordjsErrorCodes,
  Events,
  GatewayCloseCodes,
  GatewayIntentBits,
  Partials,
  type CloseEvent,
  type RateLimitData,
} from 'discord.js';
import { toChatError } from './discord-errors.js';
import type { RestAgent } from './rest-agent.js';
import type { ShardPlan } from './shard-config.js';
import type { MakeRequest } from './shared-rest-limit.js';

/** Never includes the token: start-up errors end up in terminals and CI logs. */
export const TOKEN_REJECTED =
  'Discord rejected the bot token (DISCORD_TOKEN): check it in the Developer Portal (Bot > Token).';

const MESSAGE_CONTENT_MISSING =
  'The MessageContent intent is not enabled for this application: mentions still work, but thread context from ' +
  "other people's messages is unavailable. Enable it in the Developer Portal (Bot > Privileged Gateway Intents).";

/**
 * The calls core paces (posts, edits, uploads, interaction follow-ups): a
 * rate limit of their own route is thrown at once, as Slack's are, so core's
 * reply pump waits it out and then sends its latest text, rather than
 * discord.js queueing stale edits. The bot's global limit is no one route's:
 * discord.js holds every request of the process back until it passes, and a
 * paced call that met it keeps its place (thrown, it would hold its channel
 * back as if the channel had refused it, and lose its turn there). Reads and
 * everything else wait inside discord.js too.
 */
export function pacedByCore(limit: Pick<RateLimitData, 'route' | 'method' | 'global'>): boolean {
  if (limit.global || limit.method.toUpperCase() === 'GET') return false;
  return /^\/channels\/:id\/messages/.test(limit.route) || limit.route.startsWith('/webhooks/');
}

export interface ClientOptions {
  apiUrl: string;
  agent: RestAgent;
  withMessageContent: boolean;
  shards?: ShardPlan | undefined;
  /** Sends each REST request; discord.js's own by default (`sharedRestLimit` with REDIS_URL). */
  makeRequest?: MakeRequest | undefined;
}

export function createClient(options: ClientOptions): Client {
  const { apiUrl, agent, withMessageContent, shards, makeRequest } = options;
  const intents = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages];
  return new Client({
    intents: withMessageContent ? [...intents, GatewayIntentBits.MessageContent] : intents,
    // Discord sends no CHANNEL_CREATE for a DM: its first message arrives in a channel discord.js
    // never saw, which it builds from the message only with this partial (else drops the message).
    partials: [Partials.Channel],
    // Without a plan, as many shards as GET /gateway/bot recommends, as the contract says for an
    // unset DISCORD_SHARD_COUNT (discord.js alone would start exactly one).
    ...(shards === undefined ? { shards: 'auto' as const } : { shards: [...shards.ids], shardCount: shards.count }),
    // REST lives under `${api}/v10`; the gateway address comes from GET /gateway/bot there.
    // Core is the one layer that retries a post, an edit or an upload: discord.js retrying 5xx and
    // resets as well would multiply the attempts.
    rest: { api: apiUrl, agent, retries: 0, rejectOnRateLimit: pacedByCore, ...(makeRequest && { makeRequest }) },
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
  return (
    typeof error === 'object' && error !== null && 'code' in error && error.code === DiscordjsErrorCodes.TokenInvalid
  );
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
export async function connectClient(
  options: Omit<ClientOptions, 'withMessageContent'> & { token: string; logger: Logger },
): Promise<Client<true>> {
  const first = await login(createClient({ ...options, withMessageContent: true }), options.token);
  if (first.ok) return first.client;
  if (first.closeCode !== GatewayCloseCodes.DisallowedIntents) throw startError(first);
  options.logger.warn(MESSAGE_CONTENT_MISSING);
  const second = await login(createClient({ ...options, withMessageContent: false }), options.token);
  if (second.ok) return second.client;
  throw startError(second);
}
