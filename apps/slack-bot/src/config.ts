import { type Env, envChoice, envPort, envString, envUrl, missingEnv } from '@genbot/core/config';
import { ConfigError } from '@genbot/core/errors';

export const SLACK_STREAMING_MODES = ['edit', 'native'] as const;
/** `edit`: replies stream by editing the message; `native`: Slack's AI streaming methods. */
export type SlackStreaming = (typeof SLACK_STREAMING_MODES)[number];

/** How Slack reaches the bot: a Socket Mode connection, or HTTP requests signed with the secret. */
export type SlackConnection =
  | { mode: 'socket'; appToken: string }
  | { mode: 'http'; signingSecret: string; port: number };

/**
 * Many-workspace mode: the app is installed through Slack's OAuth v2 into any
 * number of workspaces, each one's tokens stored sealed with `secretsKey`.
 */
export interface SlackInstalls {
  clientId: string;
  clientSecret: string;
  /** Signs the states handed out for installs. */
  stateSecret: string;
  /** SECRETS_KEY: 32 bytes; tokens are written with it. */
  secretsKey: Buffer;
  /** SECRETS_KEY_PREVIOUS: tokens written before the last key rotation are still read with it. */
  previousSecretsKey: Buffer | undefined;
  /** SLACK_REDIRECT_URL: the public address of `/slack/oauth_redirect`, when the app lists several. */
  redirectUrl: string | undefined;
  /** The port `/slack/install` and `/slack/oauth_redirect` are served on in Socket Mode (SLACK_PORT). */
  port: number;
}

/** One bot token for one workspace, or installs into many. */
export type SlackAuth = { botToken: string; installs?: undefined } | { botToken?: undefined; installs: SlackInstalls };

/** What answering on Slack through its Web API needs: all a job worker uses. */
export type SlackWebConfig = SlackAuth & {
  /** The Web API base. */
  apiUrl: string;
  streaming: SlackStreaming;
};

export type SlackConfig = SlackWebConfig & { connection: SlackConnection };

/** The SLACK_ variables, read and checked once. */
export interface SlackEnv {
  /** Undefined when neither SLACK_BOT_TOKEN nor SLACK_CLIENT_ID is set: no Slack bot is configured. */
  bot: SlackConfig | undefined;
  /** SLACK_STREAMING, which a Slack bot started without a token of its own (the playground's) follows too. */
  streaming: SlackStreaming;
  /** Every secret value present, for log redaction. */
  secrets: string[];
}

/** Every value is checked, set up for a bot or not, so a mistake shows before it matters. */
export function parseSlackEnv(env: Env): SlackEnv {
  const appToken = envString(env, 'SLACK_APP_TOKEN');
  const signingSecret = envString(env, 'SLACK_SIGNING_SECRET');
  const port = envPort(env, 'SLACK_PORT', 3000);
  const web = parseSlackWebEnv(env);
  const secrets = [...web.secrets, appToken, signingSecret].filter((secret) => secret !== undefined);
  const streaming = envChoice(env, 'SLACK_STREAMING', SLACK_STREAMING_MODES, { fallback: 'edit' });
  if (web.web === undefined) return { bot: undefined, streaming, secrets };
  const variable = web.web.installs === undefined ? 'SLACK_BOT_TOKEN' : 'SLACK_CLIENT_ID';
  return { bot: { ...web.web, connection: connectionOf(appToken, signingSecret, port, variable) }, streaming, secrets };
}

function connectionOf(
  appToken: string | undefined,
  signingSecret: string | undefined,
  port: number,
  variable: string,
): SlackConnection {
  if (appToken !== undefined) return { mode: 'socket', appToken };
  if (signingSecret === undefined) {
    throw missingEnv('SLACK_SIGNING_SECRET', `in HTTP mode (${variable} set, SLACK_APP_TOKEN unset).`);
  }
  return { mode: 'http', signingSecret, port };
}

/**
 * The SLACK_ variables a job worker reads: the bot token or the installs, the
 * API base and the streaming mode. It receives no events, so it needs no
 * signing secret or app token. `web` is undefined when neither SLACK_BOT_TOKEN
 * nor SLACK_CLIENT_ID is set.
 */
export function parseSlackWebEnv(env: Env): { web: SlackWebConfig | undefined; secrets: string[] } {
  const botToken = envString(env, 'SLACK_BOT_TOKEN');
  const apiUrl = envUrl(env, 'SLACK_API_URL', 'https://slack.com/api/');
  const streaming = envChoice(env, 'SLACK_STREAMING', SLACK_STREAMING_MODES, { fallback: 'edit' });
  const installs = parseInstalls(env);
  if (botToken !== undefined && installs !== undefined) {
    throw new ConfigError(
      'SLACK_BOT_TOKEN and SLACK_CLIENT_ID are both set: set SLACK_BOT_TOKEN for one workspace, or SLACK_CLIENT_ID (with SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and SECRETS_KEY) to install the app into many, not both.',
      { variable: 'SLACK_CLIENT_ID' },
    );
  }
  if (installs !== undefined)
    return { web: { installs: installs.value, apiUrl, streaming }, secrets: installs.secrets };
  if (botToken === undefined) return { web: undefined, secrets: [] };
  return { web: { botToken, apiUrl, streaming }, secrets: [botToken] };
}

const MANY_WORKSPACES = 'with SLACK_CLIENT_ID (installs into many workspaces).';

function parseInstalls(env: Env): { value: SlackInstalls; secrets: string[] } | undefined {
  const clientId = envString(env, 'SLACK_CLIENT_ID');
  const redirectUrl = envUrl(env, 'SLACK_REDIRECT_URL');
  const previous = envString(env, 'SECRETS_KEY_PREVIOUS');
  const previousSecretsKey = previous === undefined ? undefined : secretsKey('SECRETS_KEY_PREVIOUS', previous);
  if (clientId === undefined) return undefined;
  const required = (name: string): string => {
    const value = envString(env, name);
    if (value === undefined) throw missingEnv(name, MANY_WORKSPACES);
    return value;
  };
  const clientSecret = required('SLACK_CLIENT_SECRET');
  const stateSecret = required('SLACK_STATE_SECRET');
  const key = required('SECRETS_KEY');
  return {
    value: {
      clientId,
      clientSecret,
      stateSecret,
      secretsKey: secretsKey('SECRETS_KEY', key),
      previousSecretsKey,
      redirectUrl,
      port: envPort(env, 'SLACK_PORT', 3000),
    },
    secrets: [clientSecret, stateSecret, key, ...(previous === undefined ? [] : [previous])],
  };
}

/** 32 bytes in Base64 (`openssl rand -base64 32`): an AES-256 key. */
function secretsKey(name: string, value: string): Buffer {
  const bytes = Buffer.from(value, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || bytes.length !== 32) {
    throw new ConfigError(`${name} must be 32 bytes in Base64 (make one with: openssl rand -base64 32).`, {
      variable: name,
    });
  }
  return bytes;
}
