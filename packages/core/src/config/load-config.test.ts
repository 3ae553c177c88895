import { describe, expect, it } from 'vitest';
import { UsageError } from '../genai/errors.js';
import { DEFAULT_MODELS } from './default-models.js';
import { ConfigError, loadConfig } from './load-config.js';

describe('loadConfig', () => {
  it('applies the defaults of the contract', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      service: {
        baseUrl: undefined,
        apiKey: undefined,
        chatModel: DEFAULT_MODELS.chat,
        imageModel: DEFAULT_MODELS.image,
        textModel: DEFAULT_MODELS.text,
        imageTimeoutMs: 120_000,
        textTimeoutMs: 60_000,
      },
      slack: { apiUrl: 'https://slack.com/api/', port: 3000, streaming: 'edit' },
      discord: { apiUrl: 'https://discord.com/api' },
      logLevel: 'info',
      playgroundPort: 8787,
      secrets: [],
    });
  });

  it('reads every variable and collects the secrets', () => {
    const config = loadConfig({
      GENAI_BASE_URL: 'https://gw.example.com/proxy/',
      GENAI_API_KEY: 'k-1',
      CHAT_MODEL: 'c',
      IMAGE_MODEL: 'i',
      TEXT_MODEL: 't',
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      SLACK_PORT: '4000',
      SLACK_STREAMING: 'native',
      DISCORD_TOKEN: 'd-1',
      DISCORD_APPLICATION_ID: '42',
      DISCORD_API_URL: 'http://127.0.0.1:9/api',
      LOG_LEVEL: 'DEBUG',
      PLAYGROUND_PORT: '0',
      GENAI_IMAGE_TIMEOUT_MS: '300000',
    });
    expect(config.service).toMatchObject({ baseUrl: 'https://gw.example.com/proxy/', apiKey: 'k-1', chatModel: 'c', imageModel: 'i', textModel: 't', imageTimeoutMs: 300_000 });
    expect(config.slack).toEqual({ botToken: 'xoxb-1', appToken: 'xapp-1', apiUrl: 'http://127.0.0.1:9/api/', port: 4000, streaming: 'native' });
    expect(config.discord).toEqual({ token: 'd-1', applicationId: '42', apiUrl: 'http://127.0.0.1:9/api' });
    expect(config.logLevel).toBe('debug');
    expect(config.playgroundPort).toBe(0);
    expect(config.secrets.sort()).toEqual(['d-1', 'k-1', 'xapp-1', 'xoxb-1']);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ GENAI_BASE_URL: '', CHAT_MODEL: ' ' }).service).toMatchObject({ baseUrl: undefined, chatModel: DEFAULT_MODELS.chat });
  });

  it.each([
    [{ GENAI_BASE_URL: 'https://x.example' }, 'GENAI_API_KEY'],
    [{ GENAI_BASE_URL: 'not a url', GENAI_API_KEY: 'k' }, 'GENAI_BASE_URL'],
    [{ SLACK_API_URL: 'ftp://x' }, 'SLACK_API_URL'],
    [{ SLACK_PORT: '70000' }, 'SLACK_PORT'],
    [{ PLAYGROUND_PORT: 'eighty' }, 'PLAYGROUND_PORT'],
    [{ SLACK_STREAMING: 'fast' }, 'SLACK_STREAMING'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SLACK_BOT_TOKEN: 'xoxb-1' }, 'SLACK_SIGNING_SECRET'],
  ])('names the variable that does not fit (%o)', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message).toContain(variable);
    expect((error as Error).name).toBe('ConfigError');
  });

  it('never repeats a bad value in its message', () => {
    const value = 'https://user:hunter2@[bad';
    expect(() => loadConfig({ GENAI_BASE_URL: value, GENAI_API_KEY: 'k' })).toThrow(ConfigError);
    try {
      loadConfig({ GENAI_BASE_URL: value, GENAI_API_KEY: 'k' });
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
  });
});
