import type { SlackEnv, SlackIdentity } from './env.js';
import { VERIFICATION_TOKEN } from './events.js';
import { messageJson } from './render.js';
import type { ResponseUrls } from './response-urls.js';
import type { SlackChannel, SlackMessage, SlackUser } from './workspace.js';

/** The workspace's `domain`, as Slack derives it from the team's name. */
export function teamDomain(identity: SlackIdentity): string {
  return identity.teamName.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** A fresh `trigger_id` for `userId` (3 s to open a modal with it), issued so `views.open` accepts it. */
export function newTrigger(env: SlackEnv, userId: string): string {
  const { workspace } = env;
  const id = `${Date.now()}.${workspace.nextId('', 8)}.${workspace.nextId('trigger', 12).toLowerCase()}`;
  return env.interactivity.issue(id, userId).id;
}

/** The fields every interactive payload carries: who acted, in which app and workspace. */
export function interactiveEnvelope(identity: SlackIdentity, user: SlackUser) {
  return {
    team: { id: identity.teamId, domain: teamDomain(identity) },
    user: { id: user.id, username: user.name, name: user.name, team_id: identity.teamId },
    api_app_id: identity.appId,
    token: VERIFICATION_TOKEN,
  };
}

/**
 * A `block_actions` payload: `actions` pressed in `container` (a message or
 * a view) with `triggerId`; `where` adds what that container's payload
 * carries (the message and its channel, or the view).
 */
export function blockActions(
  identity: SlackIdentity,
  input: {
    user: SlackUser;
    triggerId: string;
    container: Record<string, unknown>;
    actions: readonly Record<string, unknown>[];
    where: Record<string, unknown>;
  },
) {
  return {
    type: 'block_actions',
    ...interactiveEnvelope(identity, input.user),
    container: input.container,
    trigger_id: input.triggerId,
    enterprise: null,
    is_enterprise_install: false,
    ...input.where,
    actions: input.actions,
  };
}

/** When an action happened, as Slack writes it. */
export function actionTs(): string {
  return `${(Date.now() / 1000).toFixed(6)}`;
}

/** Where a press on a message happened, as its `block_actions` payload says it: `container` and `where`. */
export function onMessage(
  env: SlackEnv,
  responses: ResponseUrls,
  press: { channel: SlackChannel; message: SlackMessage; user: SlackUser },
) {
  const { channel, message, user } = press;
  return {
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: channel.id,
      is_ephemeral: false,
      ...(message.threadTs !== undefined && { thread_ts: message.threadTs }),
    },
    where: {
      channel: { id: channel.id, name: channel.name },
      message: messageJson(env.render, message),
      state: { values: {} },
      response_url: responses.issue(channel.id, user.id),
    },
  };
}
