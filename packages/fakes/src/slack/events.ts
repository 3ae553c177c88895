import type { SlackEnv } from './env.js';
import { messageJson } from './render.js';
import type { SlackChannel, SlackMessage } from './workspace.js';

/** The legacy verification token Slack still puts in payloads; Bolt ignores it in favour of the signature. */
export const VERIFICATION_TOKEN = 'fake-verification-token';

/** A message event's `channel_type`, which also names its subscription (`message.im`…). */
export function channelType(channel: SlackChannel | undefined): 'im' | 'group' | 'channel' {
  if (channel?.isIm) return 'im';
  return channel?.isPrivate ? 'group' : 'channel';
}

/** Wraps an event in Slack's `event_callback` envelope, with a fresh `event_id`. */
export function eventCallback(env: SlackEnv, event: Record<string, unknown>): Record<string, unknown> {
  const { identity } = env;
  return {
    token: VERIFICATION_TOKEN,
    team_id: identity.teamId,
    context_team_id: identity.teamId,
    context_enterprise_id: null,
    api_app_id: identity.appId,
    event,
    type: 'event_callback',
    event_id: env.workspace.nextId('Ev', 10),
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: identity.teamId,
        user_id: identity.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${Buffer.from(`${identity.teamId}:${event.channel ?? ''}`).toString('base64url')}`,
  };
}

/** The `message` event for a stored message (`message.channels` / `message.im` subscriptions). */
export function messageEvent(env: SlackEnv, message: SlackMessage): Record<string, unknown> {
  const {
    reply_count: _c,
    reply_users: _u,
    reply_users_count: _n,
    latest_reply: _l,
    ...json
  } = messageJson(env.render, message);
  return {
    ...json,
    ...(message.fileIds.length > 0 &&
      message.subtype === undefined &&
      message.botId === undefined && { subtype: 'file_share' }),
    channel: message.channel,
    channel_type: channelType(env.workspace.channels.get(message.channel)),
    event_ts: message.ts,
  };
}

/** The `app_mention` event: the message's fields without `channel_type`, as Slack sends it. */
export function appMentionEvent(env: SlackEnv, message: SlackMessage): Record<string, unknown> {
  const { channel_type: _t, subtype: _s, ...rest } = messageEvent(env, message);
  return { ...rest, type: 'app_mention' };
}

export function mentions(text: string, userId: string): boolean {
  return text.includes(`<@${userId}>`) || text.includes(`<@${userId}|`);
}
