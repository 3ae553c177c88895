import { ConfigError } from '@genbot/core/errors';
import { describe, expect, it } from 'vitest';
import { parseDiscordEnv } from './config.js';

describe('parseDiscordEnv', () => {
  it('configures no bot without DISCORD_TOKEN', () => {
    expect(parseDiscordEnv({ DISCORD_APPLICATION_ID: '42' })).toEqual({ bot: undefined, secrets: [] });
  });

  it('reads the token, the application and the API base, with the defaults of the contract', () => {
    expect(parseDiscordEnv({ DISCORD_TOKEN: 'd-1' })).toEqual({
      bot: { token: 'd-1', apiUrl: 'https://discord.com/api' },
      secrets: ['d-1'],
    });
    expect(
      parseDiscordEnv({ DISCORD_TOKEN: 'd-1', DISCORD_APPLICATION_ID: '42', DISCORD_API_URL: 'http://127.0.0.1:9/api' })
        .bot,
    ).toEqual({ token: 'd-1', applicationId: '42', apiUrl: 'http://127.0.0.1:9/api' });
  });

  it('names DISCORD_API_URL when it does not fit, token or not', () => {
    for (const env of [{ DISCORD_API_URL: 'ftp://x' }, { DISCORD_TOKEN: 'd-1', DISCORD_API_URL: 'nope' }]) {
      expect(() => parseDiscordEnv(env)).toThrow(ConfigError);
      expect(() => parseDiscordEnv(env)).toThrow(/^DISCORD_API_URL /);
    }
  });
});
