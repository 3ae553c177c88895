import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { ConfigError } from './config-error.js';
import { DEFAULT_MODELS } from './default-models.js';
import { loadConfig } from './load-config.js';

function errorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the defaults of the contract', () => {
    expect(loadConfig({})).toEqual({
      service: {
        endpoint: undefined,
        chatModel: DEFAULT_MODELS.chat,
        imageModel: DEFAULT_MODELS.image,
        textModel: DEFAULT_MODELS.text,
        imageTimeoutMs: 120_000,
        textTimeoutMs: 60_000,
        streamTimeoutMs: 600_000,
        maxResponseBytes: 32 * 1024 * 1024,
      },
      reply: { maxChars: 40_000 },
      chat: { system: undefined, maxTokens: 4_096, userIdKey: undefined, tools: true },
      quota: { imagesPerDay: undefined, chatTokensPerDay: undefined },
      operator: {
        chatModels: [DEFAULT_MODELS.chat],
        imageModels: [DEFAULT_MODELS.image],
        chatModel: DEFAULT_MODELS.chat,
        imageModel: DEFAULT_MODELS.image,
        systemPrompt: undefined,
        budgetImagesPerDay: undefined,
        budgetChatTokensPerDay: undefined,
      },
      adminUserIds: [],
      retentionDays: 30,
      logLevel: 'info',
      secrets: [],
    });
  });

  it('reads the model lists, admins and budgets; the first listed model is the default', () => {
    const config = loadConfig({
      CHAT_MODELS: 'chat-a, chat-b,,chat-a',
      IMAGE_MODELS: 'image-a,image-b',
      IMAGE_MODEL: 'image-b',
      ADMIN_USER_IDS: 'U1,123456789012345678',
      BUDGET_IMAGES_PER_DAY: '200',
      BUDGET_CHAT_TOKENS_PER_DAY: '1000000',
      CHAT_SYSTEM_PROMPT: 'You are Ada.',
    });
    expect(config.service).toMatchObject({ chatModel: 'chat-a', imageModel: 'image-b' });
    expect(config.operator).toEqual({
      chatModels: ['chat-a', 'chat-b'],
      imageModels: ['image-a', 'image-b'],
      chatModel: 'chat-a',
      imageModel: 'image-b',
      systemPrompt: 'You are Ada.',
      budgetImagesPerDay: 200,
      budgetChatTokensPerDay: 1_000_000,
    });
    expect(config.adminUserIds).toEqual(['U1', '123456789012345678']);
  });

  it('stops at start when a model is missing from its list, naming both variables', () => {
    const error = errorOf(() => loadConfig({ CHAT_MODEL: 'chat-z', CHAT_MODELS: 'chat-a,chat-b' }));
    expect(error.message).toContain('CHAT_MODEL');
    expect(error.message).toContain('CHAT_MODELS');
    expect(errorOf(() => loadConfig({ IMAGE_MODEL: 'x', IMAGE_MODELS: 'y' })).message).toMatch(
      /IMAGE_MODEL .*IMAGE_MODELS/,
    );
    expect(errorOf(() => loadConfig({ BUDGET_IMAGES_PER_DAY: 'lots' })).message).toContain('BUDGET_IMAGES_PER_DAY');
  });

  it("reads every variable of core's and collects the secrets", () => {
    const config = loadConfig({
      GENAI_BASE_URL: 'https://gw.example.com/proxy/',
      GENAI_API_KEY: 'k-1',
      CHAT_MODEL: 'c',
      IMAGE_MODEL: 'i',
      TEXT_MODEL: 't',
      LOG_LEVEL: 'DEBUG',
      GENAI_IMAGE_TIMEOUT_MS: '300000',
      GENAI_TEXT_TIMEOUT_MS: '1000',
      GENAI_STREAM_TIMEOUT_MS: '90000',
      GENAI_MAX_RESPONSE_BYTES: '1048576',
      REPLY_MAX_CHARS: '12000',
      QUOTA_IMAGES_PER_DAY: '20',
      QUOTA_CHAT_TOKENS_PER_DAY: '0',
      RETENTION_DAYS: '7',
      CHAT_SYSTEM_PROMPT: "  You are Ferris, the docs team's helper.\nBe brief.  ",
      CHAT_MAX_TOKENS: '64000',
      CHAT_TOOLS: 'OFF',
    });
    expect(config).toEqual({
      service: {
        endpoint: { baseUrl: 'https://gw.example.com/proxy/', apiKey: 'k-1' },
        chatModel: 'c',
        imageModel: 'i',
        textModel: 't',
        imageTimeoutMs: 300_000,
        textTimeoutMs: 1_000,
        streamTimeoutMs: 90_000,
        maxResponseBytes: 1_048_576,
      },
      reply: { maxChars: 12_000 },
      chat: {
        system: "You are Ferris, the docs team's helper.\nBe brief.",
        maxTokens: 64_000,
        userIdKey: 'k-1',
        tools: false,
      },
      quota: { imagesPerDay: 20, chatTokensPerDay: 0 },
      operator: expect.objectContaining({ chatModels: ['c'], imageModels: ['i'], systemPrompt: expect.any(String) }),
      adminUserIds: [],
      retentionDays: 7,
      logLevel: 'debug',
      secrets: ['k-1'],
    });
  });

  it('leaves the platforms to the apps: their variables are neither read nor checked', () => {
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_PORT: 'x', DISCORD_API_URL: 'ftp://x' })).toEqual(
      loadConfig({}),
    );
  });

  it('treats empty values as unset', () => {
    const config = loadConfig({ GENAI_BASE_URL: '', CHAT_MODEL: ' ', CHAT_SYSTEM_PROMPT: ' \n ', CHAT_MAX_TOKENS: '' });
    expect(config.service).toMatchObject({ endpoint: undefined, chatModel: DEFAULT_MODELS.chat });
    expect(config.chat).toMatchObject({ system: undefined, maxTokens: 4_096 });
  });

  it.each([
    [{ GENAI_BASE_URL: 'https://x.example' }, 'GENAI_API_KEY'],
    [{ GENAI_BASE_URL: 'not a url', GENAI_API_KEY: 'k' }, 'GENAI_BASE_URL'],
    [{ GENAI_IMAGE_TIMEOUT_MS: '0' }, 'GENAI_IMAGE_TIMEOUT_MS'],
    [{ GENAI_TEXT_TIMEOUT_MS: '1.5' }, 'GENAI_TEXT_TIMEOUT_MS'],
    [{ GENAI_STREAM_TIMEOUT_MS: '0' }, 'GENAI_STREAM_TIMEOUT_MS'],
    [{ GENAI_MAX_RESPONSE_BYTES: '32MiB' }, 'GENAI_MAX_RESPONSE_BYTES'],
    [{ QUOTA_IMAGES_PER_DAY: '-1' }, 'QUOTA_IMAGES_PER_DAY'],
    [{ QUOTA_CHAT_TOKENS_PER_DAY: 'lots' }, 'QUOTA_CHAT_TOKENS_PER_DAY'],
    [{ RETENTION_DAYS: '0' }, 'RETENTION_DAYS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ REPLY_MAX_CHARS: '10' }, 'REPLY_MAX_CHARS'],
    [{ CHAT_MAX_TOKENS: '0' }, 'CHAT_MAX_TOKENS'],
    [{ CHAT_MAX_TOKENS: '64001' }, 'CHAT_MAX_TOKENS'],
    [{ CHAT_MAX_TOKENS: '4k' }, 'CHAT_MAX_TOKENS'],
    [{ CHAT_TOOLS: 'yes' }, 'CHAT_TOOLS'],
  ])('names the variable that does not fit (%o)', (env, variable) => {
    const error = errorOf(() => loadConfig(env));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.name).toBe('ConfigError');
  });

  it('never repeats a bad value in its message', () => {
    const error = errorOf(() => loadConfig({ GENAI_BASE_URL: 'https://user:hunter2@[bad', GENAI_API_KEY: 'k' }));
    expect(String(error)).not.toContain('hunter2');
  });
});
