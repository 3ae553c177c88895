import type { SlackChannel, SlackFile, SlackMessage, SlackUser, SlackWorkspace } from './workspace.js';

/** Where the fake serves things; file URLs are absolute on the fake like Slack's are on files.slack.com. */
export interface RenderContext {
  workspace: SlackWorkspace;
  baseUrl: string;
  appId: string;
}

/** Slack's path scheme: `/files-pri/{team}-{file}/{name}` and `/files-pri/{team}-{file}/download/{name}`. */
export function fileUrls(ctx: RenderContext, file: SlackFile): { urlPrivate: string; urlPrivateDownload: string } {
  const root = `${ctx.baseUrl}files-pri/${ctx.workspace.teamId}-${file.id}`;
  const name = encodeURIComponent(file.name);
  return { urlPrivate: `${root}/${name}`, urlPrivateDownload: `${root}/download/${name}` };
}

/**
 * A file as messages and events show it: in full, or for the access modes
 * Slack hides something of, what Slack sends instead (shapes as recorded from
 * Slack: the Slack Connect stub, `hidden_by_limit`, `tombstone`, external).
 */
export function fileOnMessageJson(ctx: RenderContext, file: SlackFile): Record<string, unknown> {
  switch (file.access) {
    case 'check_file_info':
      return { id: file.id, mode: 'file_access', file_access: 'check_file_info', created: 0, timestamp: 0, user: '' };
    case 'hidden_by_limit':
      return { id: file.id, mode: 'hidden_by_limit' };
    case 'tombstone':
      return { id: file.id, mode: 'tombstone' };
    default:
      return fileJson(ctx, file);
  }
}

/** A file in full, as files.info and upload answers show it. */
export function fileJson(ctx: RenderContext, file: SlackFile): Record<string, unknown> {
  if (file.access === 'external') {
    return {
      ...fileJson(ctx, { ...file, access: undefined }),
      mode: 'external',
      is_external: true,
      external_type: 'gdrive',
      url_private: `https://docs.google.com/file/d/${file.id}`,
      url_private_download: `https://docs.google.com/file/d/${file.id}/download`,
    };
  }
  const { urlPrivate, urlPrivateDownload } = fileUrls(ctx, file);
  return {
    id: file.id,
    created: file.created,
    timestamp: file.created,
    name: file.name,
    title: file.title,
    mimetype: file.mimetype,
    filetype: file.filetype,
    pretty_type: file.filetype.toUpperCase(),
    user: file.user,
    user_team: ctx.workspace.teamId,
    editable: false,
    size: file.bytes?.length ?? file.declaredLength,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: file.channel !== undefined && !file.channel.startsWith('D'),
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: urlPrivate,
    url_private_download: urlPrivateDownload,
    permalink: `${ctx.baseUrl}files/${file.user}/${file.id}/${encodeURIComponent(file.name)}`,
    ...(file.altText !== undefined && { alt_txt: file.altText }),
    channels: file.channel !== undefined && !file.channel.startsWith('D') ? [file.channel] : [],
    groups: [],
    ims: file.channel?.startsWith('D') ? [file.channel] : [],
    has_rich_preview: false,
    file_access: 'visible',
    shares: sharesOf(ctx, file),
  };
}

/** Where a file was shared: the message that carries it, by channel, as files.info shows it. */
function sharesOf(ctx: RenderContext, file: SlackFile): Record<string, unknown> {
  if (file.channel === undefined || file.messageTs === undefined) return {};
  const channel = ctx.workspace.channels.get(file.channel);
  const share = {
    ts: file.messageTs,
    channel_name: channel?.name ?? '',
    team_id: ctx.workspace.teamId,
    share_user_id: file.user,
    reply_users_count: 0,
    reply_count: 0,
    ...(file.threadTs !== undefined && { thread_ts: file.threadTs }),
  };
  return {
    [channel?.isPrivate === true || channel?.isIm === true ? 'private' : 'public']: { [file.channel]: [share] },
  };
}

function botProfile(ctx: RenderContext, user: SlackUser | undefined, botId: string): Record<string, unknown> {
  return {
    id: botId,
    app_id: ctx.appId,
    name: user?.name ?? 'bot',
    deleted: false,
    team_id: ctx.workspace.teamId,
    ...(user !== undefined && { user_id: user.id }),
  };
}

/** A message as conversations.history/replies and the chat.* responses show it. */
export function messageJson(ctx: RenderContext, message: SlackMessage): Record<string, unknown> {
  const { workspace } = ctx;
  const author = message.user !== undefined ? workspace.users.get(message.user) : undefined;
  const files = message.fileIds
    .map((id) => workspace.files.get(id))
    .filter((file): file is SlackFile => file !== undefined)
    .map((file) => fileOnMessageJson(ctx, file));
  const json: Record<string, unknown> = {
    type: 'message',
    ts: message.ts,
    text: message.text,
    team: workspace.teamId,
    ...(message.subtype !== undefined && { subtype: message.subtype }),
    ...(message.user !== undefined && { user: message.user }),
    ...(message.botId !== undefined && { bot_id: message.botId }),
    ...(message.botId !== undefined &&
      message.subtype !== 'bot_message' && {
        app_id: ctx.appId,
        bot_profile: botProfile(ctx, author, message.botId),
      }),
    ...(message.username !== undefined && { username: message.username }),
    ...(message.blocks !== undefined && { blocks: message.blocks }),
    ...(files.length > 0 && { files, upload: false }),
    ...(message.edited !== undefined && { edited: message.edited }),
  };
  if (message.threadTs !== undefined) {
    json.thread_ts = message.threadTs;
    if (message.threadTs === message.ts) {
      const replies = workspace.thread(message.channel, message.ts).slice(1);
      json.reply_count = replies.length;
      json.reply_users_count = new Set(replies.map((r) => r.user)).size;
      json.reply_users = [...new Set(replies.map((r) => r.user).filter((u) => u !== undefined))];
      const latest = replies.at(-1);
      if (latest) json.latest_reply = latest.ts;
    } else {
      const parent = workspace.message(message.channel, message.threadTs);
      if (parent?.user !== undefined) json.parent_user_id = parent.user;
    }
  }
  return json;
}

export function userJson(ctx: RenderContext, user: SlackUser): Record<string, unknown> {
  const role = user.role ?? 'member';
  return {
    id: user.id,
    team_id: ctx.workspace.teamId,
    name: user.name,
    deleted: false,
    real_name: user.realName,
    tz: 'Europe/Berlin',
    tz_label: 'Central European Time',
    tz_offset: 3600,
    // Slack: every owner is also an admin, and the primary owner is an owner.
    is_admin: role !== 'member',
    is_owner: role === 'owner' || role === 'primary_owner',
    is_primary_owner: role === 'primary_owner',
    is_bot: user.isBot,
    is_app_user: false,
    updated: 1700000000,
    profile: {
      real_name: user.realName,
      real_name_normalized: user.realName,
      display_name: user.displayName,
      display_name_normalized: user.displayName,
      team: ctx.workspace.teamId,
      ...(user.botId !== undefined && { bot_id: user.botId, api_app_id: ctx.appId }),
      image_48: `${ctx.baseUrl}avatars/${user.id}_48.png`,
    },
  };
}

export function channelJson(channel: SlackChannel): Record<string, unknown> {
  if (channel.isIm) {
    return {
      id: channel.id,
      created: channel.created,
      is_im: true,
      is_org_shared: false,
      user: channel.imUser,
      is_user_deleted: false,
    };
  }
  return {
    id: channel.id,
    name: channel.name,
    name_normalized: channel.name,
    created: channel.created,
    is_channel: !channel.isPrivate,
    is_group: channel.isPrivate,
    is_im: false,
    is_mpim: false,
    is_private: channel.isPrivate,
    is_archived: false,
    is_general: channel.name === 'general',
    is_shared: false,
    is_org_shared: false,
    is_member: true,
    topic: { value: '', creator: '', last_set: 0 },
    purpose: { value: '', creator: '', last_set: 0 },
  };
}
