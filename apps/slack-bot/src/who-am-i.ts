import type { webApi } from '@slack/bolt';
import { type BotIdentity, parseIdentity } from './parse-thread.js';
import { slackCall } from './slack-errors.js';

/** The bot's own ids, from `auth.test`: whose messages in a thread are its own. */
export async function whoAmI(client: webApi.WebClient): Promise<BotIdentity> {
  const response = await slackCall('auth.test', () => client.auth.test());
  const identity = parseIdentity(response);
  if (!identity.ok) throw new Error(`Slack auth.test answered in an unexpected shape (${identity.problem})`);
  return identity.value;
}
