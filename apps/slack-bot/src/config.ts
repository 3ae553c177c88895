import { type Env, envChoice, envPort, envString, envUrl, missingEnv } from '@genbot/core/config';

export const SLACK_STREAMING_MODES = ['edit', 'native'] as const;
/** `edit`: replies stream by editing the message; `native`: Slack's AI streaming methods. */
export type SlackStreaming = (typeof SLACK_STREAMING_MODES)[number];

/** How Slack reaches the bot: a Socket Mode connection, or HTTP requests signed with the secret. */
export type SlackConnection =
  | { mode: 'socket'; appToken: string }
  | { mode: 'http'; signingSecret: string; port: number };

/** What answering on Slack through its Web API needs: all a job worker uses. */
export interface SlackWebConfig {
  botToken: string;
  /** The Web API base. */
  apiUrl: string;
  streaming: SlackStreaming;
}

export interface SlackConfig extends SlackWebConfig {
  connection: SlackConnection;
}

/** The SLACK_ variables, read and checked once. */
export interface SlackEnv {
  /** Undefined when SLACK_BOT_TOKEN is unset: no Slack bot is configured. */
  bot: SlackConfig | undefined;
  /** SLACK_STREAMING, which a Slack bot started without a token of its own (the playground's) follows too. */
  streaming: SlackStreaming;
  /** Every secret value present, for log redaction. */
  secrets: string[];
}

/** Every value is checked, set up for a bot or not, so a mistake shows before it matters. */
export function parseSlackEnv(env: Env): SlackEnv {
  const botToken = envString(env, 'SLACK_BOT_TOKEN');
  const appToken = envString(env, 'SLACK_APP_TOKEN');
  const signingSecret = envString(env, 'SLACK_SIGNING_SECRET');
  const apiUrl = envUrl(env, 'SLACK_API_URL', 'https://slack.com/api/');
  const port = envPort(env, 'SLACK_PORT', 3000);
  const streaming = envChoice(env, 'SLACK_STREAMING', SLACK_STREAMING_MODES, { fallback: 'edit' });
  const secrets = [botToken, appToken, signingSecret].filter((secret) => secret !== undefined);
  if (botToken === undefined) return { bot: undefined, streaming, secrets };
  return {
    bot: { botToken, connection: connectionOf(appToken, signingSecret, port), apiUrl, streaming },
    streaming,
    secrets,
  };
}

function connectionOf(appToken: string | undefined, signingSecret: string | undefined, port: number): SlackConnection {
  if (appToken !== undefined) return { mode: 'socket', appToken };
  if (signingSecret === undefined) {
    throw missingEnv('SLACK_SIGNING_SECRET', 'in HTTP mode (SLACK_BOT_TOKEN set, SLACK_APP_TOKEN unset).');
  }
  return { mode: 'http', signingSecret, port };
}

/**
 * The SLACK_ variables a job worker reads: the bot token, the API base and
 * the streaming mode. It receives no events, so it needs no signing secret
 * or app token. `web` is undefined when SLACK_BOT_TOKEN is unset.
 */
export function parseSlackWebEnv(env: Env): { web: SlackWebConfig | undefined; secrets: string[] } {
  const botToken = envString(env, 'SLACK_BOT_TOKEN');
  const apiUrl = envUrl(env, 'SLACK_API_URL', 'https://slack.com/api/');
  const streaming = envChoice(env, 'SLACK_STREAMING', SLACK_STREAMING_MODES, { fallback: 'edit' });
  if (botToken === undefined) return { web: undefined, secrets: [] };
  return { web: { botToken, apiUrl, streaming }, secrets: [botToken] };
}
