import { ConfigError } from '@genbot/core/errors';
import { describe, expect, it } from 'vitest';
import { parseSlackEnv } from './config.js';

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
});
