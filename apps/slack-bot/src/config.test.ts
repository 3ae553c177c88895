import { ConfigError } from '@genbot/core/errors';
import { describe, expect, it } from 'vitest';
import { parseSlackEnv, parseSlackWebEnv } from './config.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const OLD_KEY = Buffer.alloc(32, 9).toString('base64');
const INSTALLS = {
  SLACK_CLIENT_ID: '123.456',
  SLACK_CLIENT_SECRET: 'client-secret-1',
  SLACK_STATE_SECRET: 'state-secret-1',
  SECRETS_KEY: KEY,
  SLACK_SIGNING_SECRET: 's-1',
};

describe('parseSlackEnv', () => {
  it('configures no bot without SLACK_BOT_TOKEN, with the defaults of the contract', () => {
    expect(parseSlackEnv({})).toEqual({ bot: undefined, streaming: 'edit', secrets: [] });
  });

  it('reads Socket Mode when SLACK_APP_TOKEN is set, and collects the secrets', () => {
    expect(
      parseSlackEnv({
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_APP_TOKEN: 'xapp-1',
        SLACK_API_URL: 'http://127.0.0.1:9/api/',
        SLACK_PORT: '4000',
        SLACK_STREAMING: 'native',
      }),
    ).toEqual({
      bot: {
        botToken: 'xoxb-1',
        connection: { mode: 'socket', appToken: 'xapp-1' },
        apiUrl: 'http://127.0.0.1:9/api/',
        streaming: 'native',
      },
      streaming: 'native',
      secrets: ['xoxb-1', 'xapp-1'],
    });
  });

  it('reads HTTP mode with the signing secret and the port', () => {
    expect(parseSlackEnv({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's-1', SLACK_PORT: '0' }).bot).toEqual({
      botToken: 'xoxb-1',
      connection: { mode: 'http', signingSecret: 's-1', port: 0 },
      apiUrl: 'https://slack.com/api/',
      streaming: 'edit',
    });
  });

  it.each([
    [{ SLACK_BOT_TOKEN: 'xoxb-1' }, 'SLACK_SIGNING_SECRET'],
    [{ SLACK_API_URL: 'ftp://x' }, 'SLACK_API_URL'],
    [{ SLACK_PORT: '70000' }, 'SLACK_PORT'],
    [{ SLACK_STREAMING: 'fast' }, 'SLACK_STREAMING'],
  ])('names the variable that does not fit, bot token or not (%o)', (env, variable) => {
    let error: unknown;
    try {
      parseSlackEnv(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message).toMatch(new RegExp(`^${variable} `));
  });

  it('reads many-workspace mode from SLACK_CLIENT_ID, with the keys as bytes and every secret for redaction', () => {
    const parsed = parseSlackEnv({
      ...INSTALLS,
      SECRETS_KEY_PREVIOUS: OLD_KEY,
      SLACK_REDIRECT_URL: 'https://genbot.example/slack/oauth_redirect',
      SLACK_PORT: '4000',
    });
    expect(parsed.bot).toEqual({
      installs: {
        clientId: '123.456',
        clientSecret: 'client-secret-1',
        stateSecret: 'state-secret-1',
        secretsKey: Buffer.alloc(32, 7),
        previousSecretsKey: Buffer.alloc(32, 9),
        redirectUrl: 'https://genbot.example/slack/oauth_redirect',
        port: 4000,
      },
      connection: { mode: 'http', signingSecret: 's-1', port: 4000 },
      apiUrl: 'https://slack.com/api/',
      streaming: 'edit',
    });
    expect(parsed.secrets.sort()).toEqual(['client-secret-1', 'state-secret-1', KEY, OLD_KEY, 's-1'].sort());
    expect(parseSlackWebEnv(INSTALLS).web?.installs?.clientId).toBe('123.456');
  });

  it.each([
    [{ ...INSTALLS, SLACK_BOT_TOKEN: 'xoxb-1' }, 'SLACK_CLIENT_ID', /SLACK_BOT_TOKEN and SLACK_CLIENT_ID are both set/],
    [{ ...INSTALLS, SECRETS_KEY: undefined }, 'SECRETS_KEY', /^SECRETS_KEY is required with SLACK_CLIENT_ID/],
    [{ ...INSTALLS, SECRETS_KEY: Buffer.alloc(16).toString('base64') }, 'SECRETS_KEY', /32 bytes in Base64/],
    [{ ...INSTALLS, SECRETS_KEY: `${KEY.slice(0, -4)}!!!=` }, 'SECRETS_KEY', /32 bytes in Base64/],
    [{ ...INSTALLS, SECRETS_KEY_PREVIOUS: 'short' }, 'SECRETS_KEY_PREVIOUS', /32 bytes in Base64/],
    [{ ...INSTALLS, SLACK_CLIENT_SECRET: '' }, 'SLACK_CLIENT_SECRET', /is required with SLACK_CLIENT_ID/],
    [{ ...INSTALLS, SLACK_STATE_SECRET: undefined }, 'SLACK_STATE_SECRET', /is required with SLACK_CLIENT_ID/],
    [{ ...INSTALLS, SLACK_REDIRECT_URL: 'slack' }, 'SLACK_REDIRECT_URL', /not a valid URL/],
    [{ ...INSTALLS, SLACK_SIGNING_SECRET: undefined }, 'SLACK_SIGNING_SECRET', /SLACK_CLIENT_ID set/],
  ])('refuses a many-workspace set-up that does not fit, naming the variable (%#)', (env, variable, message) => {
    let error: unknown;
    try {
      parseSlackEnv(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(KEY);
  });
});
