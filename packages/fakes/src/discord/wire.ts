import type { GuildRecord, GuildState } from './guild-state.js';
import {
  ChannelType,
  type AttachmentRecord,
  type ChannelRecord,
  type InteractionRecord,
  type MessageRecord,
  type UserRecord,
} from './model.js';
import { EVERYONE_PERMISSIONS } from './permissions.js';

/** JSON as Discord sends it. Built here only, from the state records. */
export type Json = Record<string, unknown>;

export function wireUser(user: UserRecord): Json {
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.bot ? null : user.username,
    avatar: null,
    bot: user.bot,
    system: false,
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
  };
}

/** A guild member without its user, as attached to messages (`member`). */
export function wirePartialMember(user: UserRecord): Json {
  return {
    roles: [],
    nick: null,
    avatar: null,
    joined_at: user.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
}

export function wireMember(user: UserRecord): Json {
  return { ...wirePartialMember(user), user: wireUser(user) };
}

export function wireChannel(channel: ChannelRecord, state: GuildState): Json {
  const messages = state.messages(channel.id);
  const base: Json = {
    id: channel.id,
    type: channel.type,
    guild_id: state.guild.id,
    name: channel.name,
    last_message_id: messages.at(-1)?.id ?? null,
    rate_limit_per_user: 0,
    flags: 0,
    nsfw: false,
  };
  if (channel.type === ChannelType.GuildText) {
    return { ...base, position: channel.position, permission_overwrites: [], parent_id: null, topic: null };
  }
  return {
    ...base,
    parent_id: channel.parentId,
    owner_id: channel.ownerId,
    message_count: messages.length,
    member_count: 1,
    total_message_sent: messages.length,
    thread_metadata: {
      archived: false,
      auto_archive_duration: channel.autoArchiveDuration,
      archive_timestamp: channel.createdAt,
      locked: false,
      create_timestamp: channel.createdAt,
    },
  };
}

export function wireAttachment(attachment: AttachmentRecord): Json {
  return {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.size,
    url: attachment.url,
    proxy_url: attachment.url,
    content_type: attachment.contentType,
    ...(attachment.width === undefined ? {} : { width: attachment.width, height: attachment.height }),
    ...(attachment.description === undefined ? {} : { description: attachment.description }),
  };
}

/** A full message object, with `referenced_message` one level deep as Discord sends it. */
export function wireMessage(message: MessageRecord, state: GuildState, depth = 0): Json {
  const referenced = message.reference ? state.message(message.reference.channelId, message.reference.messageId) : undefined;
  const mentions = message.mentions.flatMap((id) => {
    const user = state.findUser(id);
    return user ? [{ ...wireUser(user), member: wirePartialMember(user) }] : [];
  });
  return {
    id: message.id,
    type: message.type,
    channel_id: message.channelId,
    author: wireUser(message.author),
    content: message.content,
    timestamp: message.timestamp,
    edited_timestamp: message.editedTimestamp,
    tts: message.tts,
    mention_everyone: false,
    mentions,
    mention_roles: [],
    mention_channels: [],
    attachments: message.attachments.map(wireAttachment),
    embeds: message.embeds,
    components: message.components,
    reactions: [],
    pinned: false,
    flags: message.flags,
    ...(message.webhookId === null ? {} : { webhook_id: message.webhookId, application_id: message.webhookId }),
    ...(message.reference === null
      ? {}
      : {
          message_reference: {
            type: 0,
            message_id: message.reference.messageId,
            channel_id: message.reference.channelId,
            guild_id: state.guild.id,
          },
          referenced_message: referenced && depth === 0 ? wireMessage(referenced, state, depth + 1) : null,
        }),
    ...(message.interaction === null
      ? {}
      : {
          interaction_metadata: {
            id: message.interaction.interactionId,
            type: 2,
            name: message.interaction.commandName,
            command_type: 1,
            user: wireUser(state.findUser(message.interaction.userId) ?? message.author),
            authorizing_integration_owners: { '0': state.guild.id },
          },
          interaction: {
            id: message.interaction.interactionId,
            type: 2,
            name: message.interaction.commandName,
            user: wireUser(state.findUser(message.interaction.userId) ?? message.author),
          },
        }),
    // Messages in threads carry their position in the thread.
    ...(state.channel(message.channelId)?.parentId
      ? { position: state.messages(message.channelId).indexOf(message) }
      : {}),
  };
}

/** The extra fields a gateway MESSAGE_CREATE/UPDATE carries in a guild. */
export function wireGuildMessage(message: MessageRecord, state: GuildState): Json {
  return { ...wireMessage(message, state), guild_id: state.guild.id, member: wirePartialMember(message.author) };
}

function wireEveryoneRole(guild: GuildRecord): Json {
  return {
    id: guild.id,
    name: '@everyone',
    description: null,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: 0,
    permissions: EVERYONE_PERMISSIONS,
    managed: false,
    mentionable: false,
    flags: 0,
  };
}

/** The full GUILD_CREATE payload: discord.js marks the client ready only once this arrives. */
export function wireGuildCreate(state: GuildState): Json {
  const { guild } = state;
  const members = state.users;
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    icon_hash: null,
    splash: null,
    discovery_splash: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: [wireEveryoneRole(guild)],
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: state.channels[0]?.id ?? null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: 'en-US',
    nsfw_level: 0,
    max_members: 500000,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    incidents_data: null,
    joined_at: state.botUser.joinedAt,
    large: false,
    unavailable: false,
    lazy: true,
    member_count: members.length,
    members: members.map(wireMember),
    channels: state.channels.map((channel) => wireChannel(channel, state)),
    threads: state.threads.map((thread) => wireChannel(thread, state)),
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
  };
}

export function wireApplication(state: GuildState, applicationId: string, flags: number): Json {
  return {
    id: applicationId,
    name: state.botUser.username,
    icon: null,
    description: '',
    summary: '',
    type: null,
    bot_public: false,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags,
    owner: wireUser(state.findUser(state.guild.ownerId) ?? state.botUser),
    team: null,
    bot: wireUser(state.botUser),
    approximate_guild_count: 1,
    integration_types_config: { '0': {} },
  };
}

/** INTERACTION_CREATE for a chat-input command, with what discord.js reads at construction. */
export function wireInteraction(
  interaction: InteractionRecord,
  state: GuildState,
  applicationId: string,
  optionTypes: ReadonlyMap<string, number>,
  attachmentSizeLimit: number,
): Json {
  const channel = state.channel(interaction.channelId);
  return {
    id: interaction.id,
    application_id: applicationId,
    type: 2,
    data: {
      id: interaction.commandId,
      name: interaction.commandName,
      type: 1,
      guild_id: state.guildCommands.some((command) => command.id === interaction.commandId) ? state.guild.id : undefined,
      options: Object.entries(interaction.options).map(([name, value]) => ({
        name,
        type: optionTypes.get(name) ?? 3,
        value,
      })),
    },
    guild_id: state.guild.id,
    guild: { id: state.guild.id, locale: 'en-US', features: [] },
    channel_id: interaction.channelId,
    channel: channel ? wireChannel(channel, state) : undefined,
    member: { ...wireMember(interaction.user), permissions: EVERYONE_PERMISSIONS },
    token: interaction.token,
    version: 1,
    app_permissions: EVERYONE_PERMISSIONS,
    locale: 'en-US',
    guild_locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': state.guild.id },
    context: 0,
    attachment_size_limit: attachmentSizeLimit,
  };
}

/** READY's payload, without the session fields the gateway adds. The guild follows as GUILD_CREATE. */
export function wireReady(state: GuildState, applicationId: string, applicationFlags: number): Json {
  return {
    v: 10,
    user: { ...wireUser(state.botUser), verified: true, mfa_enabled: false, email: null },
    guilds: [{ id: state.guild.id, unavailable: true }],
    shard: [0, 1],
    application: { id: applicationId, flags: applicationFlags },
    user_settings: {},
    private_channels: [],
    presences: [],
    relationships: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    auth: {},
    _trace: ['fake-gateway'],
  };
}
