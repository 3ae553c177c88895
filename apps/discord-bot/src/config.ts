import { type Env, envString, envUrl } from '@genbot/core/config';
import { parseShardPlan, type ShardPlan } from './shard-config.js';

export interface DiscordConfig {
  token: string;
  /** Registers `/imagine` on start when set; the bot's own application otherwise has it registered already. */
  applicationId?: string;
  /** The REST base; the gateway address comes from it. */
  apiUrl: string;
  /** DISCORD_SHARD_COUNT / DISCORD_SHARD_IDS; undefined: the shards Discord recommends, all in this process. */
  shards?: ShardPlan;
}

/** What registering `/imagine` needs: the application is no longer optional. */
export type DiscordRegistrationConfig = DiscordConfig & { applicationId: string };

/** The DISCORD_ variables, read and checked once. */
export interface DiscordEnv {
  /** Undefined when DISCORD_TOKEN is unset: no Discord bot is configured. */
  bot: DiscordConfig | undefined;
  /** Every secret value present, for log redaction. */
  secrets: string[];
}

/** Every value is checked, set up for a bot or not, so a mistake shows before it matters. */
export function parseDiscordEnv(env: Env): DiscordEnv {
  const token = envString(env, 'DISCORD_TOKEN');
  const applicationId = envString(env, 'DISCORD_APPLICATION_ID');
  const apiUrl = envUrl(env, 'DISCORD_API_URL', 'https://discord.com/api');
  const shards = parseShardPlan(env);
  if (token === undefined) return { bot: undefined, secrets: [] };
  return {
    bot: { token, ...(applicationId !== undefined && { applicationId }), apiUrl, ...(shards && { shards }) },
    secrets: [token],
  };
}
