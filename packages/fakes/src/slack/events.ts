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

/** The workspace a conversation belongs to: its own, or the fake's. */
export function teamOfChannel(env: SlackEnv, channelId: string): string {
  return env.workspace.channels.get(channelId)?.teamId ?? env.identity.teamId;
}

/** Where a delivery about a conversation comes from: its workspace, its org, and whether the app is installed org-wide. */
export function originOf(env: SlackEnv, channelId: string | undefined) {
  return env.oauth.teamOf(channelId === undefined ? env.identity.teamId : teamOfChannel(env, channelId));
}

/**
 * Wraps an event in Slack's `event_callback` envelope, with a fresh
 * `event_id`, from the workspace of the event's channel (`team`: from that
 * workspace, for events that name no channel).
 */
export function eventCallback(env: SlackEnv, event: Record<string, unknown>, team?: string): Record<string, unknown> {
  const { identity } = env;
  const origin =
    team === undefined
      ? originOf(env, typeof event.channel === 'string' ? event.channel : undefined)
      : env.oauth.teamOf(team);
  const enterpriseId = origin.enterpriseId ?? null;
  return {
    token: VERIFICATION_TOKEN,
    team_id: origin.teamId,
    ...(enterpriseId !== null && { enterprise_id: enterpriseId }),
    context_team_id: origin.teamId,
    context_enterprise_id: enterpriseId,
    api_app_id: identity.appId,
    event,
    type: 'event_callback',
    event_id: env.workspace.nextId('Ev', 10),
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: enterpriseId,
        team_id: origin.isEnterpriseInstall ? null : origin.teamId,
        user_id: identity.botUserId,
        is_bot: true,
        is_enterprise_install: origin.isEnterpriseInstall,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${Buffer.from(`${origin.teamId}:${event.channel ?? ''}`).toString('base64url')}`,
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
