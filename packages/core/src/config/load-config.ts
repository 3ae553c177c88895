import { UsageError } from '../genai/errors.js';
import { DEFAULT_MODELS } from './default-models.js';

export interface ServiceConfig {
  /** Unset: the built-in emulator is started in-process. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  chatModel: string;
  imageModel: string;
  textModel: string;
  imageTimeoutMs: number;
  textTimeoutMs: number;
}

export interface SlackConfig {
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  apiUrl: string;
  port: number;
  streaming: 'edit' | 'native';
}

export interface DiscordConfig {
  token?: string;
  applicationId?: string;
  apiUrl: string;
}

export interface AppConfig {
  service: ServiceConfig;
  slack: SlackConfig;
  discord: DiscordConfig;
  logLevel: string;
  playgroundPort: number;
  /** Every secret value present, for log redaction. */
  secrets: string[];
}

/** A variable that does not fit; the message names the variable and never repeats its value. */
export class ConfigError extends UsageError {
  override readonly name: string = 'ConfigError';
  /** The variable at fault, when one is. */
  readonly variable: string | undefined;

  constructor(message: string, options: { variable?: string } = {}) {
    super(message);
    this.variable = options.variable;
  }
}

function invalid(variable: string, problem: string): ConfigError {
  return new ConfigError(`${variable} ${problem}`, { variable });
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const STREAMING_MODES = ['edit', 'native'] as const;

const DEFAULT_IMAGE_TIMEOUT_MS = 120_000;
const DEFAULT_TEXT_TIMEOUT_MS = 60_000;

/** Empty counts as unset: `FOO=` in a .env file means "no value". */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function url(env: NodeJS.ProcessEnv, name: string, fallback: string): string;
function url(env: NodeJS.ProcessEnv, name: string, fallback?: undefined): string | undefined;
function url(env: NodeJS.ProcessEnv, name: string, fallback?: string): string | undefined {
  const value = read(env, name);
  if (value === undefined) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalid(name, 'is not a valid URL (expected http:// or https://).');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid(name, 'must be an http:// or https:// URL.');
  }
  return value;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, what: string): number {
  const value = read(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw invalid(name, `must be ${what} (${min}-${max}).`);
  }
  return Number(value);
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return integer(env, name, fallback, 0, 65_535, 'a port number');
}

/**
 * The environment table of CONTRACT.md, read and checked once. Besides it,
 * GENAI_IMAGE_TIMEOUT_MS and GENAI_TEXT_TIMEOUT_MS tune the service timeouts.
 */
export function loadConfig(env: NodeJS.ProcessEnv): AppConfig {
  const baseUrl = url(env, 'GENAI_BASE_URL');
  const apiKey = read(env, 'GENAI_API_KEY');
  if (baseUrl !== undefined && apiKey === undefined) {
    throw invalid('GENAI_API_KEY', 'is required when GENAI_BASE_URL is set.');
  }

  const streaming = read(env, 'SLACK_STREAMING') ?? 'edit';
  if (!(STREAMING_MODES as readonly string[]).includes(streaming)) {
    throw invalid('SLACK_STREAMING', `must be one of: ${STREAMING_MODES.join(', ')}.`);
  }
  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw invalid('LOG_LEVEL', `must be one of: ${LOG_LEVELS.join(', ')}.`);
  }

  const botToken = read(env, 'SLACK_BOT_TOKEN');
  const appToken = read(env, 'SLACK_APP_TOKEN');
  const signingSecret = read(env, 'SLACK_SIGNING_SECRET');
  if (botToken !== undefined && appToken === undefined && signingSecret === undefined) {
    throw invalid('SLACK_SIGNING_SECRET', 'is required in HTTP mode (SLACK_BOT_TOKEN set, SLACK_APP_TOKEN unset).');
  }
  const discordToken = read(env, 'DISCORD_TOKEN');
  const applicationId = read(env, 'DISCORD_APPLICATION_ID');

  const secrets = [apiKey, botToken, appToken, signingSecret, discordToken].filter((s): s is string => s !== undefined);

  return {
    service: {
      baseUrl,
      apiKey,
      chatModel: read(env, 'CHAT_MODEL') ?? DEFAULT_MODELS.chat,
      imageModel: read(env, 'IMAGE_MODEL') ?? DEFAULT_MODELS.image,
      textModel: read(env, 'TEXT_MODEL') ?? DEFAULT_MODELS.text,
      imageTimeoutMs: integer(env, 'GENAI_IMAGE_TIMEOUT_MS', DEFAULT_IMAGE_TIMEOUT_MS, 1, 3_600_000, 'milliseconds'),
      textTimeoutMs: integer(env, 'GENAI_TEXT_TIMEOUT_MS', DEFAULT_TEXT_TIMEOUT_MS, 1, 3_600_000, 'milliseconds'),
    },
    slack: {
      ...(botToken === undefined ? {} : { botToken }),
      ...(appToken === undefined ? {} : { appToken }),
      ...(signingSecret === undefined ? {} : { signingSecret }),
      apiUrl: url(env, 'SLACK_API_URL', 'https://slack.com/api/'),
      port: port(env, 'SLACK_PORT', 3000),
      streaming: streaming as SlackConfig['streaming'],
    },
    discord: {
      ...(discordToken === undefined ? {} : { token: discordToken }),
      ...(applicationId === undefined ? {} : { applicationId }),
      apiUrl: url(env, 'DISCORD_API_URL', 'https://discord.com/api'),
    },
    logLevel,
    playgroundPort: port(env, 'PLAYGROUND_PORT', 8787),
    secrets,
  };
}
