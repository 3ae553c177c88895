import type { OperatorSettings } from '../settings/catalogue.js';
import { ConfigError } from './config-error.js';
import { DEFAULT_MODELS } from './default-models.js';
import { type Env, envChoice, envInteger, envList, envString, envUrl, missingEnv } from './env.js';

/** Where the content-generation service is: both or neither of address and key. */
export interface ServiceEndpoint {
  baseUrl: string;
  apiKey: string;
}

export interface ServiceConfig {
  /** Undefined: no service configured, the built-in emulator is started in-process. */
  endpoint: ServiceEndpoint | undefined;
  chatModel: string;
  imageModel: string;
  textModel: string;
  imageTimeoutMs: number;
  textTimeoutMs: number;
  /** The longest a streamed reply may take, content or not. */
  streamTimeoutMs: number;
  /** The largest answer accepted: a generate-content body (images as Base64) or a whole stream. */
  maxResponseBytes: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How the bots reply, whatever the platform. */
export interface ReplyConfig {
  /** REPLY_MAX_CHARS: the longest reply shown, in characters; past it a short note ends the reply. */
  maxChars: number;
}

/** Daily limits per user (UTC day); undefined: no limit. */
export interface QuotaConfig {
  /** QUOTA_IMAGES_PER_DAY: images generated or edited. */
  imagesPerDay: number | undefined;
  /** QUOTA_CHAT_TOKENS_PER_DAY: chat input + output tokens. */
  chatTokensPerDay: number | undefined;
}

/** How conversations ask the model, whatever the platform. */
export interface ConversationConfig {
  /** CHAT_SYSTEM_PROMPT; undefined: the built-in one (see `systemPromptFor`). */
  system: string | undefined;
  /** CHAT_MAX_TOKENS: `max_tokens` of a conversation's messages request. */
  maxTokens: number;
  /**
   * The key of the per-user hash sent as `metadata.user_id`: the deployment's service key, so the hash
   * is stable across restarts and processes of one deployment and no one without the key can tie it
   * back to a platform ID; undefined (the offline emulator): a fixed built-in key.
   */
  userIdKey: string | undefined;
  /** CHAT_TOOLS: whether a conversation offers the model generate_image and edit_image. */
  tools: boolean;
}

/** What core itself is configured with; each app reads its platform's variables on its own. */
export interface CoreConfig {
  service: ServiceConfig;
  reply: ReplyConfig;
  chat: ConversationConfig;
  quota: QuotaConfig;
  /** CHAT_MODELS, IMAGE_MODELS, BUDGET_*: what channels and workspaces may choose, and the budgets' ceilings. */
  operator: OperatorSettings;
  /** ADMIN_USER_IDS: who may change settings everywhere, besides each platform's own admins. */
  adminUserIds: readonly string[];
  /** RETENTION_DAYS: job inputs, image versions and cached thread messages older than this are swept. */
  retentionDays: number;
  logLevel: LogLevel;
  /** The secret values among these variables, for log redaction. */
  secrets: string[];
}

/** Ten Slack messages of 4,000 characters, twenty on Discord: far longer than a chat answer should be. */
const DEFAULT_REPLY_MAX_CHARS = 40_000;
const DEFAULT_IMAGE_TIMEOUT_MS = 120_000;
const DEFAULT_TEXT_TIMEOUT_MS = 60_000;
const TIMEOUT_RANGE = { min: 1, max: 3_600_000, what: 'milliseconds' };
const DEFAULT_STREAM_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const DEFAULT_RETENTION_DAYS = 30;
const DEFAULT_CHAT_MAX_TOKENS = 4_096;

function optionalCount(env: Env, name: string, what: string): number | undefined {
  if (envString(env, name) === undefined) return undefined;
  return envInteger(env, name, { fallback: 0, min: 0, max: 1_000_000_000, what });
}

function endpointOf(env: Env): ServiceEndpoint | undefined {
  const baseUrl = envUrl(env, 'GENAI_BASE_URL');
  const apiKey = envString(env, 'GENAI_API_KEY');
  if (baseUrl === undefined) return undefined;
  if (apiKey === undefined) throw missingEnv('GENAI_API_KEY', 'when GENAI_BASE_URL is set.');
  return { baseUrl, apiKey };
}

/**
 * A model variable and the list a channel may choose from: the list's first
 * is the default when the variable is unset, and a default missing from its
 * list is refused at start, naming both.
 */
function modelChoice(env: Env, single: string, list: string, fallback: string): { model: string; models: string[] } {
  const models = envList(env, list);
  const model = envString(env, single) ?? models[0] ?? fallback;
  if (models.length === 0) return { model, models: [model] };
  if (!models.includes(model)) {
    throw new ConfigError(
      `${single} (${model}) is not one of ${list} (${models.join(', ')}): add it to ${list} or pick one of them.`,
      {
        variable: single,
      },
    );
  }
  return { model, models };
}

/**
 * The service and logging variables of CONTRACT.md, read and checked once. Besides them,
 * GENAI_IMAGE_TIMEOUT_MS, GENAI_TEXT_TIMEOUT_MS and GENAI_STREAM_TIMEOUT_MS tune the service
 * timeouts, GENAI_MAX_RESPONSE_BYTES caps its answers, and REPLY_MAX_CHARS bounds a reply;
 * QUOTA_IMAGES_PER_DAY, QUOTA_CHAT_TOKENS_PER_DAY and RETENTION_DAYS set the daily quotas and
 * how long content is kept; CHAT_SYSTEM_PROMPT and CHAT_MAX_TOKENS shape a conversation's request.
 */
export function loadConfig(env: Env): CoreConfig {
  const endpoint = endpointOf(env);
  const apiKey = envString(env, 'GENAI_API_KEY');
  const chat = modelChoice(env, 'CHAT_MODEL', 'CHAT_MODELS', DEFAULT_MODELS.chat);
  const image = modelChoice(env, 'IMAGE_MODEL', 'IMAGE_MODELS', DEFAULT_MODELS.image);
  const system = envString(env, 'CHAT_SYSTEM_PROMPT');
  return {
    service: {
      endpoint,
      chatModel: chat.model,
      imageModel: image.model,
      textModel: envString(env, 'TEXT_MODEL') ?? DEFAULT_MODELS.text,
      imageTimeoutMs: envInteger(env, 'GENAI_IMAGE_TIMEOUT_MS', {
        fallback: DEFAULT_IMAGE_TIMEOUT_MS,
        ...TIMEOUT_RANGE,
      }),
      textTimeoutMs: envInteger(env, 'GENAI_TEXT_TIMEOUT_MS', { fallback: DEFAULT_TEXT_TIMEOUT_MS, ...TIMEOUT_RANGE }),
      streamTimeoutMs: envInteger(env, 'GENAI_STREAM_TIMEOUT_MS', {
        fallback: DEFAULT_STREAM_TIMEOUT_MS,
        ...TIMEOUT_RANGE,
        max: 86_400_000,
      }),
      maxResponseBytes: envInteger(env, 'GENAI_MAX_RESPONSE_BYTES', {
        fallback: DEFAULT_MAX_RESPONSE_BYTES,
        min: 1024,
        max: 1024 * 1024 * 1024,
        what: 'a size in bytes',
      }),
    },
    reply: {
      maxChars: envInteger(env, 'REPLY_MAX_CHARS', {
        fallback: DEFAULT_REPLY_MAX_CHARS,
        min: 1_000,
        max: 1_000_000,
        what: 'characters',
      }),
    },
    chat: {
      system,
      maxTokens: envInteger(env, 'CHAT_MAX_TOKENS', {
        fallback: DEFAULT_CHAT_MAX_TOKENS,
        min: 1,
        max: 64_000,
        what: 'a number of tokens',
      }),
      userIdKey: apiKey,
      tools: envChoice(env, 'CHAT_TOOLS', ['on', 'off'], { fallback: 'on', ignoreCase: true }) === 'on',
    },
    quota: {
      imagesPerDay: optionalCount(env, 'QUOTA_IMAGES_PER_DAY', 'a number of images'),
      chatTokensPerDay: optionalCount(env, 'QUOTA_CHAT_TOKENS_PER_DAY', 'a number of tokens'),
    },
    operator: {
      chatModels: chat.models,
      imageModels: image.models,
      chatModel: chat.model,
      imageModel: image.model,
      systemPrompt: system,
      budgetImagesPerDay: optionalCount(env, 'BUDGET_IMAGES_PER_DAY', 'a number of images'),
      budgetChatTokensPerDay: optionalCount(env, 'BUDGET_CHAT_TOKENS_PER_DAY', 'a number of tokens'),
    },
    adminUserIds: envList(env, 'ADMIN_USER_IDS'),
    retentionDays: envInteger(env, 'RETENTION_DAYS', {
      fallback: DEFAULT_RETENTION_DAYS,
      min: 1,
      max: 36_500,
      what: 'a number of days',
    }),
    logLevel: envChoice(env, 'LOG_LEVEL', LOG_LEVELS, { fallback: 'info', ignoreCase: true }),
    secrets: apiKey === undefined ? [] : [apiKey],
  };
}
