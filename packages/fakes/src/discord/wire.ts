import type { GuildRecord, GuildState } from './guild-state.js';
import { onShard, type ShardInfo } from './shards.js';
import {
  ChannelType,
  type AttachmentRecord,
  type ChannelRecord,
  type InteractionMetadataRecord,
  type InteractionRecord,
  type MessageRecord,
  type UserRecord,
} from './model.js';
import { EVERYONE_PERMISSIONS, INTERACTION_ONLY_PERMISSIONS, USE_EXTERNAL_APPS } from './permissions.js';

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

/** A DM channel as REST and interactions show it: no guild, no name, its person as the recipient. */
function wireDmChannel(channel: ChannelRecord, state: GuildState): Json {
  const recipient = channel.recipientId === undefined ? undefined : state.findUser(channel.recipientId);
  return {
    id: channel.id,
    type: channel.type,
    last_message_id: state.messages(channel.id).at(-1)?.id ?? null,
    flags: 0,
    recipients: recipient === undefined ? [] : [wireUser(recipient)],
  };
}

export function wireChannel(channel: ChannelRecord, state: GuildState): Json {
  if (channel.type === ChannelType.DM) return wireDmChannel(channel, state);
  const messages = state.messages(channel.id);
  const base: Json = {
    id: channel.id,
    type: channel.type,
    guild_id: guildIdOf(channel.id, state),
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

export function wireAttachment(attachment: AttachmentRecord, state: GuildState): Json {
  const url = new URL(attachment.url);
  const signed = `${url.origin}${state.cdn.sign(url.pathname)}`;
  return {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.size,
    url: signed,
    proxy_url: signed,
    ...(attachment.contentTypeShown === false ? {} : { content_type: attachment.contentType }),
    ...(attachment.width === undefined ? {} : { width: attachment.width, height: attachment.height }),
    ...(attachment.description === undefined ? {} : { description: attachment.description }),
    ...(attachment.flags === undefined ? {} : { flags: attachment.flags }),
    ...(attachment.ephemeral === true ? { ephemeral: true } : {}),
    ...(attachment.voice === undefined
      ? {}
      : { duration_secs: attachment.voice.durationSecs, waveform: attachment.voice.waveform }),
  };
}

/** A full message object, with `referenced_message` one level deep as Discord sends it. */
export function wireMessage(message: MessageRecord, state: GuildState, depth = 0): Json {
  const referenced = message.reference
    ? state.message(message.reference.channelId, message.reference.messageId)
    : undefined;
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
    attachments: message.attachments.map((attachment) => wireAttachment(attachment, state)),
    embeds: message.embeds,
    components: message.components,
    reactions: message.botReactions.map((name) => ({
      count: 1,
      count_details: { burst: 0, normal: 1 },
      me: true,
      me_burst: false,
      burst_colors: [],
      emoji: { id: null, name },
    })),
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
            ...(inGuild(message.channelId, state) ? { guild_id: guildIdOf(message.channelId, state) } : {}),
          },
          referenced_message: referenced && depth === 0 ? wireMessage(referenced, state, depth + 1) : null,
        }),
    ...(message.interaction === null
      ? {}
      : wireMessageInteraction(message.interaction, message.author, state, message.channelId)),
    // Messages in threads carry their position in the thread.
    ...(state.channel(message.channelId)?.parentId
      ? { position: state.messages(message.channelId).indexOf(message) }
      : {}),
  };
}

/**
 * `interaction_metadata` of a message made through an interaction, and the deprecated
 * `interaction` that application-command responses still carry.
 */
function wireMessageInteraction(
  meta: InteractionMetadataRecord,
  author: UserRecord,
  state: GuildState,
  channelId: string,
): Json {
  const user = wireUser(state.findUser(meta.userId) ?? author);
  const legacy =
    meta.commandName === undefined
      ? {}
      : { interaction: { id: meta.interactionId, type: meta.type, name: meta.commandName, user } };
  const owners = integrationOwners(channelId, meta.userId, state);
  return { interaction_metadata: wireInteractionMetadata(meta, author, state, owners), ...legacy };
}

function wireInteractionMetadata(
  meta: InteractionMetadataRecord,
  author: UserRecord,
  state: GuildState,
  owners: Json,
): Json {
  return {
    id: meta.interactionId,
    type: meta.type,
    user: wireUser(state.findUser(meta.userId) ?? author),
    authorizing_integration_owners: owners,
    ...(meta.commandName === undefined ? {} : { name: meta.commandName, command_type: meta.commandType }),
    ...(meta.targetMessageId === undefined ? {} : { target_message_id: meta.targetMessageId }),
    ...(meta.interactedMessageId === undefined ? {} : { interacted_message_id: meta.interactedMessageId }),
    ...(meta.trigger === undefined
      ? {}
      : { triggering_interaction_metadata: wireInteractionMetadata(meta.trigger, author, state, owners) }),
    ...(meta.originalResponseMessageId == null ? {} : { original_response_message_id: meta.originalResponseMessageId }),
  };
}

/**
 * Who authorises an interaction in a channel: the guild install ("0", the guild's id; named
 * "0" in the bot's DM), or in a server the bot is not in only the person's own install
 * ("1", their user id).
 */
export function integrationOwners(channelId: string, userId: string, state: GuildState): Json {
  const channel = state.channel(channelId);
  if (channel?.elsewhere !== undefined) return { '1': userId };
  return { '0': channel?.type === ChannelType.DM ? '0' : state.guild.id };
}

/** The server a guild channel belongs to: the fake guild's, or another server's (a user install's). */
export function guildIdOf(channelId: string, state: GuildState): string {
  return state.channel(channelId)?.elsewhere?.guildId ?? state.guild.id;
}

/** Whether a channel is the guild's (a channel or thread), not a DM. */
export function inGuild(channelId: string, state: GuildState): boolean {
  return state.channel(channelId)?.type !== ChannelType.DM;
}

/**
 * A gateway MESSAGE_CREATE/UPDATE: the message with the type of its channel
 * (what lets a client build a DM channel it never saw) and, in the guild, the
 * guild and the author's membership.
 */
export function wireGatewayMessage(message: MessageRecord, state: GuildState): Json {
  const channelType = state.channel(message.channelId)?.type ?? ChannelType.GuildText;
  const wired = { ...wireMessage(message, state), channel_type: channelType };
  if (channelType === ChannelType.DM) return wired;
  return { ...wired, guild_id: state.guild.id, member: wirePartialMember(message.author) };
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

/** The guild as REST's `GET /guilds/{id}` gives it: no members, channels or other gateway-only fields. */
export function wireGuild(state: GuildState): Json {
  const {
    joined_at: _joinedAt,
    large: _large,
    unavailable: _unavailable,
    member_count: _memberCount,
    members: _members,
    channels: _channels,
    threads: _threads,
    voice_states: _voiceStates,
    presences: _presences,
    ...guild
  } = wireGuildCreate(state);
  return guild;
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

/**
 * INTERACTION_CREATE, with what discord.js reads at construction: a command's options, a message
 * command's resolved target, a component's message, a modal's submitted values.
 */
export function wireInteraction(
  interaction: InteractionRecord,
  state: GuildState,
  applicationId: string,
  optionTypes: ReadonlyMap<string, number>,
  attachmentSizeLimit: number,
): Json {
  const channel = state.channel(interaction.channelId);
  const commandGuild = (commandId: string) =>
    state.guildCommands.some((command) => command.id === commandId) ? state.guild.id : undefined;
  const { data } = interaction;
  // Components and modals carry their message without the message it replies to, as Discord sends it.
  const shownMessage = (messageId: string | null) => {
    const message = messageId === null ? undefined : state.message(interaction.channelId, messageId);
    return message ? { message: { ...wireMessage(message, state, 1), referenced_message: undefined } } : {};
  };
  let fields: Json;
  switch (data.kind) {
    case 'chat-input':
      fields = {
        data: {
          id: data.commandId,
          name: data.commandName,
          type: 1,
          guild_id: commandGuild(data.commandId),
          options: subcommandOptions(
            data.subcommand,
            Object.entries(data.options).map(([name, value]) => ({
              name,
              type: optionTypes.get(name) ?? 3,
              value,
            })),
          ),
        },
      };
      break;
    case 'message-command': {
      const target = state.message(interaction.channelId, data.targetMessageId);
      fields = {
        data: {
          id: data.commandId,
          name: data.commandName,
          type: 3,
          guild_id: commandGuild(data.commandId),
          target_id: data.targetMessageId,
          resolved: { messages: target ? { [target.id]: wireMessage(target, state, 1) } : {} },
        },
      };
      break;
    }
    case 'component':
      fields = {
        data: { custom_id: data.customId, component_type: data.componentType },
        ...shownMessage(data.messageId),
      };
      break;
    case 'modal-submit': {
      const opener = state.interaction(data.openedBy);
      let id = 1;
      const modal = opener?.modal;
      const components = (modal?.order ?? []).map((customId) => {
        const input = modal?.inputs.find((field) => field.customId === customId);
        const wrapper =
          input === undefined
            ? {
                type: 18,
                id,
                component: { type: 3, id: id + 1, custom_id: customId, values: data.selections[customId] ?? [] },
              }
            : wireSubmittedInput(id, customId, input.inLabel, data.values[customId] ?? '');
        id += 2;
        return wrapper;
      });
      fields = { data: { custom_id: data.customId, components }, ...shownMessage(data.messageId) };
      break;
    }
  }
  // In the bot's DM there is no guild or member: the person comes as `user`, and the guild
  // install that authorises the command is named "0". In a server the bot is not in, only the
  // person's own install ("1", their user id) authorises it, and the member's Use External
  // Apps says whether the answers may be public.
  const elsewhere = channel?.elsewhere;
  const guildId = elsewhere?.guildId ?? state.guild.id;
  const memberPermissions =
    BigInt(EVERYONE_PERMISSIONS) |
    (elsewhere?.externalApps ? USE_EXTERNAL_APPS : 0n) |
    (elsewhere === undefined ? state.grantedPermissions(interaction.user.id) : 0n);
  const place =
    channel?.type === ChannelType.DM
      ? { user: wireUser(interaction.user), authorizing_integration_owners: { '0': '0' }, context: 1 }
      : {
          guild_id: guildId,
          guild: { id: guildId, locale: 'en-US', features: [] },
          member: { ...wireMember(interaction.user), permissions: memberPermissions.toString() },
          guild_locale: 'en-US',
          authorizing_integration_owners: integrationOwners(interaction.channelId, interaction.user.id, state),
          context: 0,
        };
  return {
    id: interaction.id,
    application_id: applicationId,
    type: interaction.type,
    ...fields,
    ...place,
    channel_id: interaction.channelId,
    channel: channel ? wireChannel(channel, state) : undefined,
    token: interaction.token,
    version: 1,
    app_permissions: elsewhere === undefined ? EVERYONE_PERMISSIONS : INTERACTION_ONLY_PERMISSIONS,
    locale: 'en-US',
    entitlements: [],
    attachment_size_limit: attachmentSizeLimit,
  };
}

/** A subcommand's options come nested in it: `[{ name, type: 1, options }]`. */
function subcommandOptions(subcommand: string | undefined, options: Json[]): Json[] {
  return subcommand === undefined ? options : [{ name: subcommand, type: 1, options }];
}

/** A submitted text input, in the shape it was sent in: inside a Label, or the older action row. */
function wireSubmittedInput(id: number, customId: string, inLabel: boolean, value: string): Json {
  const input = { type: 4, id: id + 1, custom_id: customId, value };
  return inLabel ? { type: 18, id, component: input } : { type: 1, id, components: [input] };
}

/**
 * READY's payload for a session on `shard`, without the session fields the gateway adds. It lists
 * the guilds of that shard only; each follows as GUILD_CREATE.
 */
export function wireReady(state: GuildState, applicationId: string, applicationFlags: number, shard: ShardInfo): Json {
  return {
    v: 10,
    user: { ...wireUser(state.botUser), verified: true, mfa_enabled: false, email: null },
    guilds: onShard(state.guild.id, shard) ? [{ id: state.guild.id, unavailable: true }] : [],
    shard: [...shard],
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
