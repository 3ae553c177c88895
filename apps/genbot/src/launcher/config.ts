import { type CoreConfig, type Env, envPort, loadConfig, missingEnv, requiredEnvString } from '@genbot/core/config';
import { parseDiscordEnv } from '@genbot/discord-bot';
import { parseSlackEnv, parseSlackWebEnv } from '@genbot/slack-bot';
import type { LaunchCommand } from './args.js';
import type { LaunchPlan } from './launch.js';
import { parseSharedState, parseWorkerTuning, redisSecrets, type SharedState } from './shared-state.js';

export interface LaunchConfig {
  core: CoreConfig;
  plan: LaunchPlan;
  /** With REDIS_URL: the bots record and queue their jobs there, and `genbot worker` processes run them. */
  shared: SharedState | undefined;
  /** Core's secrets and those of the platforms read, for log redaction. */
  secrets: string[];
}

const PLAYGROUND_INSTEAD = '(set it, or run "pnpm start" for the local playground).';

/**
 * Reads core's variables and those of the platforms the command runs, once. A single bot reads
 * nothing of the other platform, so a half-configured one does not block it. Throws ConfigError,
 * naming the variable, when a value does not fit or one the command needs is missing.
 */
export function parseLaunchConfig(command: LaunchCommand, env: Env): LaunchConfig {
  const core = loadConfig(env);
  const shared = parseSharedState(env);
  const config = parsePlan(command, env, core, shared);
  return { ...config, shared, secrets: [...config.secrets, ...redisSecrets(shared)] };
}

function parsePlan(
  command: LaunchCommand,
  env: Env,
  core: CoreConfig,
  shared: SharedState | undefined,
): Omit<LaunchConfig, 'shared'> {
  switch (command.kind) {
    case 'worker': {
      if (shared === undefined) {
        throw missingEnv('REDIS_URL', 'to run job workers: they take the jobs the bots queue there.');
      }
      const slack = parseSlackWebEnv(env);
      const discord = parseDiscordEnv(env);
      if (slack.web === undefined && discord.bot === undefined) {
        throw missingEnv(
          'SLACK_BOT_TOKEN',
          'or DISCORD_TOKEN for a worker: it answers on the platforms it has a token for (SLACK_CLIENT_ID in place of SLACK_BOT_TOKEN with installs into many workspaces).',
        );
      }
      return {
        core,
        plan: { kind: 'worker', slack: slack.web, discord: discord.bot, shared, tuning: parseWorkerTuning(env) },
        secrets: [...core.secrets, ...slack.secrets, ...discord.secrets],
      };
    }
    case 'slack': {
      const slack = parseSlackEnv(env);
      if (slack.bot === undefined) {
        throw missingEnv(
          'SLACK_BOT_TOKEN',
          `to run the Slack bot ${PLAYGROUND_INSTEAD} To install it into many workspaces, set SLACK_CLIENT_ID instead.`,
        );
      }
      return {
        core,
        plan: { kind: 'bots', slack: slack.bot, discord: undefined },
        secrets: [...core.secrets, ...slack.secrets],
      };
    }
    case 'discord': {
      const discord = parseDiscordEnv(env);
      if (discord.bot === undefined) throw missingEnv('DISCORD_TOKEN', `to run the Discord bot ${PLAYGROUND_INSTEAD}`);
      return {
        core,
        plan: { kind: 'bots', slack: undefined, discord: discord.bot },
        secrets: [...core.secrets, ...discord.secrets],
      };
    }
    case 'discord-register': {
      const discord = parseDiscordEnv(env);
      if (discord.bot === undefined) throw missingEnv('DISCORD_TOKEN', 'to register commands.');
      const applicationId = requiredEnvString(env, 'DISCORD_APPLICATION_ID', 'to register commands.');
      return {
        core,
        plan: { kind: 'register', discord: { ...discord.bot, applicationId }, guildId: command.guildId },
        secrets: [...core.secrets, ...discord.secrets],
      };
    }
    case 'start': {
      const slack = parseSlackEnv(env);
      const discord = parseDiscordEnv(env);
      const port = envPort(env, 'PLAYGROUND_PORT', 8787);
      const secrets = [...core.secrets, ...slack.secrets, ...discord.secrets];
      if (slack.bot === undefined && discord.bot === undefined) {
        return { core, plan: { kind: 'playground', port, slackStreaming: slack.streaming }, secrets };
      }
      return { core, plan: { kind: 'bots', slack: slack.bot, discord: discord.bot }, secrets };
    }
  }
}
