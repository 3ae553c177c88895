import { CdnSigner } from './cdn-signing.js';
import {
  ChannelType,
  type AttachmentRecord,
  type ChannelRecord,
  type CommandRecord,
  type InteractionRecord,
  type MessageRecord,
  type MessageReferenceRecord,
  type InteractionMetadataRecord,
  type UserRecord,
} from './model.js';
import { MemberPermission, type MemberPermissionName } from './permissions.js';
import type { SnowflakeGenerator } from './snowflake.js';

export interface GuildRecord {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly createdAt: string;
}

/** A user as tests name them: a username, or a full description. */
export type UserRef = string | { readonly username: string; readonly id?: string; readonly bot?: boolean };

export interface NewMessage {
  readonly channelId: string;
  readonly author: UserRecord;
  readonly content: string;
  readonly attachments?: AttachmentRecord[];
  readonly embeds?: unknown[];
  readonly components?: unknown[];
  readonly mentions?: string[];
  readonly reference?: MessageReferenceRecord | null;
  readonly type: number;
  readonly flags?: number;
  readonly tts?: boolean;
  readonly webhookId?: string | null;
  readonly interaction?: InteractionMetadataRecord | null;
}

export interface MessageEdit {
  readonly content?: string;
  readonly attachments?: AttachmentRecord[];
  readonly embeds?: unknown[];
  readonly components?: unknown[];
  readonly mentions?: string[];
  readonly flags?: number;
}

export interface RateLimitHit {
  readonly method: string;
  readonly path: string;
  readonly route: string;
  readonly at: number;
}

/** A call to the REST API with the bot's token (interaction webhooks, whose path holds a token, are not kept). */
export interface BotRequest {
  readonly method: string;
  readonly path: string;
}

/** A request the fake refused with a Discord error (a JSON `code`), without its token-bearing path. */
export interface Refusal {
  readonly method: string;
  readonly status: number;
  readonly code: number;
  readonly at: number;
}

export interface GuildStateOptions {
  readonly ids: SnowflakeGenerator;
  readonly guildName: string;
  /** A snowflake; its timestamp bits decide the guild's shard. Default: a new one. */
  readonly guildId?: string;
  readonly channelNames: readonly string[];
  readonly botUsername: string;
  readonly botUserId?: string;
  readonly now?: () => Date;
}

/**
 * The fake's single guild and everything in it. Pure data and rules that hold whatever the
 * transport (REST handler or test driver) made the change; it sends nothing.
 */
export class GuildState {
  readonly guild: GuildRecord;
  readonly botUser: UserRecord;
  readonly globalCommands: CommandRecord[] = [];
  readonly guildCommands: CommandRecord[] = [];
  /** Every call the bot made with its token, in order: what a client really spends of its budget. */
  readonly botRequests: BotRequest[] = [];
  /** Every 429 the fake answered, so tests can check a rate limit was really hit. */
  readonly rateLimitHits: RateLimitHit[] = [];
  /** Every Discord error the REST API answered, so tests can see a client tried too early or too late. */
  readonly refusals: Refusal[] = [];
  /** Signs the attachment URLs messages carry, and checks them at the CDN. */
  readonly cdn = new CdnSigner();
  readonly #users = new Map<string, UserRecord>();
  readonly #granted = new Map<string, bigint>();
  readonly #channels = new Map<string, ChannelRecord>();
  readonly #messages = new Map<string, MessageRecord[]>();
  readonly #interactions = new Map<string, InteractionRecord>();
  readonly #ids: SnowflakeGenerator;
  readonly #now: () => Date;

  constructor(options: GuildStateOptions) {
    this.#ids = options.ids;
    this.#now = options.now ?? (() => new Date());
    const createdAt = this.#timestamp();
    this.botUser = this.#addUser({ id: options.botUserId ?? this.#ids(), username: options.botUsername, bot: true });
    const owner = this.#addUser({ id: this.#ids(), username: 'guild-owner', bot: false });
    this.guild = { id: options.guildId ?? this.#ids(), name: options.guildName, ownerId: owner.id, createdAt };
    for (const name of options.channelNames) this.addChannel(name);
  }

  get users(): readonly UserRecord[] {
    return [...this.#users.values()];
  }

  /** Guild text channels, in position order. */
  get channels(): readonly ChannelRecord[] {
    return [...this.#channels.values()].filter(
      (channel) => channel.type === ChannelType.GuildText && channel.elsewhere === undefined,
    );
  }

  get threads(): readonly ChannelRecord[] {
    return [...this.#channels.values()].filter((channel) => channel.parentId !== null);
  }

  get interactions(): readonly InteractionRecord[] {
    return [...this.#interactions.values()];
  }

  /** Finds a user by ID or username, creating a member on first mention of a new username. */
  user(ref: UserRef): UserRecord {
    const wanted = typeof ref === 'string' ? { username: ref } : ref;
    const existing =
      (wanted.id === undefined ? undefined : this.#users.get(wanted.id)) ??
      [...this.#users.values()].find((user) => user.username === wanted.username);
    if (existing) return existing;
    return this.#addUser({ id: wanted.id ?? this.#ids(), username: wanted.username, bot: wanted.bot ?? false });
  }

  /** Gives a member permissions beyond @everyone's, as a role would; an empty list takes them back. */
  grantPermissions(ref: UserRef, permissions: readonly MemberPermissionName[]): void {
    const bits = permissions.reduce((all, name) => all | MemberPermission[name], 0n);
    this.#granted.set(this.user(ref).id, bits);
  }

  /** The permission bits a member was given beyond @everyone's; the server's owner has them all (Administrator). */
  grantedPermissions(userId: string): bigint {
    const owner = userId === this.guild.ownerId ? MemberPermission.Administrator : 0n;
    return owner | (this.#granted.get(userId) ?? 0n);
  }

  findUser(id: string): UserRecord | undefined {
    return this.#users.get(id);
  }

  /** A channel or thread by ID, or a guild channel by name (with or without `#`). */
  channel(idOrName: string): ChannelRecord | undefined {
    const name = idOrName.replace(/^#/, '');
    return this.#channels.get(idOrName) ?? this.channels.find((channel) => channel.name === name);
  }

  addChannel(name: string): ChannelRecord {
    const channel: ChannelRecord = {
      id: this.#ids(),
      type: ChannelType.GuildText,
      name,
      position: this.channels.length,
      parentId: null,
      ownerId: null,
      createdAt: this.#timestamp(),
      autoArchiveDuration: 1440,
    };
    this.#channels.set(channel.id, channel);
    this.#messages.set(channel.id, []);
    return channel;
  }

  /**
   * A text channel of another server, one the bot is not in, where people use the app installed
   * to their account; `externalApps: false` is a server that forbids their public answers.
   */
  addElsewhereChannel(name: string, options: { externalApps: boolean }): ChannelRecord {
    const channel: ChannelRecord = {
      id: this.#ids(),
      type: ChannelType.GuildText,
      name,
      position: 0,
      parentId: null,
      ownerId: null,
      createdAt: this.#timestamp(),
      autoArchiveDuration: 1440,
      elsewhere: { guildId: this.#ids(), externalApps: options.externalApps },
    };
    this.#channels.set(channel.id, channel);
    this.#messages.set(channel.id, []);
    return channel;
  }

  /** A public thread; started from a message it takes that message's ID, as on Discord. */
  addThread(input: {
    parentId: string;
    name: string;
    ownerId: string;
    fromMessageId?: string;
    autoArchiveDuration?: number;
  }): ChannelRecord {
    const thread: ChannelRecord = {
      id: input.fromMessageId ?? this.#ids(),
      type: ChannelType.PublicThread,
      name: input.name,
      position: 0,
      parentId: input.parentId,
      ownerId: input.ownerId,
      createdAt: this.#timestamp(),
      autoArchiveDuration: input.autoArchiveDuration ?? 1440,
    };
    this.#channels.set(thread.id, thread);
    this.#messages.set(thread.id, []);
    return thread;
  }

  /** The DM channels people have with the bot. */
  get dmChannels(): readonly ChannelRecord[] {
    return [...this.#channels.values()].filter((channel) => channel.type === ChannelType.DM);
  }

  /** The DM between the bot and `user`: one per person, opened on first use. */
  dmChannel(user: UserRecord): ChannelRecord {
    const open = this.dmChannels.find((channel) => channel.recipientId === user.id);
    if (open) return open;
    const channel: ChannelRecord = {
      id: this.#ids(),
      type: ChannelType.DM,
      name: '',
      position: 0,
      parentId: null,
      ownerId: null,
      createdAt: this.#timestamp(),
      autoArchiveDuration: 0,
      recipientId: user.id,
    };
    this.#channels.set(channel.id, channel);
    this.#messages.set(channel.id, []);
    return channel;
  }

  /** Messages of a channel or thread, oldest first. */
  messages(channelId: string): readonly MessageRecord[] {
    return this.#messages.get(channelId) ?? [];
  }

  /** Every message in every channel and thread, oldest first. */
  get allMessages(): readonly MessageRecord[] {
    return [...this.#messages.values()].flat().sort((a, b) => compareIds(a.id, b.id));
  }

  message(channelId: string, messageId: string): MessageRecord | undefined {
    return this.#messages.get(channelId)?.find((message) => message.id === messageId);
  }

  findMessage(messageId: string): MessageRecord | undefined {
    return this.allMessages.find((message) => message.id === messageId);
  }

  addMessage(input: NewMessage): MessageRecord {
    const list = this.#messages.get(input.channelId);
    if (!list) throw new Error(`no channel ${input.channelId}`);
    const message: MessageRecord = {
      id: this.#ids(),
      channelId: input.channelId,
      author: input.author,
      content: input.content,
      timestamp: this.#timestamp(),
      editedTimestamp: null,
      attachments: input.attachments ?? [],
      embeds: input.embeds ?? [],
      components: input.components ?? [],
      mentions: input.mentions ?? [],
      reference: input.reference ?? null,
      type: input.type,
      flags: input.flags ?? 0,
      tts: input.tts ?? false,
      webhookId: input.webhookId ?? null,
      interaction: input.interaction ?? null,
      history: [],
      botReactions: [],
    };
    list.push(message);
    return message;
  }

  /** Applies an edit, keeping the replaced version in `history`. */
  editMessage(message: MessageRecord, edit: MessageEdit): MessageRecord {
    message.history.push({
      content: message.content,
      attachments: message.attachments,
      embeds: message.embeds,
      since: message.editedTimestamp ?? message.timestamp,
    });
    if (edit.content !== undefined) message.content = edit.content;
    if (edit.attachments !== undefined) message.attachments = edit.attachments;
    if (edit.embeds !== undefined) message.embeds = edit.embeds;
    if (edit.components !== undefined) message.components = edit.components;
    if (edit.mentions !== undefined) message.mentions = edit.mentions;
    if (edit.flags !== undefined) message.flags = edit.flags;
    message.editedTimestamp = this.#timestamp();
    return message;
  }

  deleteMessage(message: MessageRecord): void {
    const list = this.#messages.get(message.channelId);
    const index = list?.indexOf(message) ?? -1;
    if (list && index >= 0) list.splice(index, 1);
  }

  findAttachment(channelId: string, attachmentId: string): AttachmentRecord | undefined {
    for (const message of this.messages(channelId)) {
      const found =
        message.attachments.find((attachment) => attachment.id === attachmentId) ??
        message.history.flatMap((version) => version.attachments).find((attachment) => attachment.id === attachmentId);
      if (found) return found;
    }
    return undefined;
  }

  addInteraction(interaction: InteractionRecord): void {
    this.#interactions.set(interaction.id, interaction);
  }

  interaction(id: string): InteractionRecord | undefined {
    return this.#interactions.get(id);
  }

  interactionByToken(token: string): InteractionRecord | undefined {
    return this.interactions.find((interaction) => interaction.token === token);
  }

  #addUser(user: Omit<UserRecord, 'joinedAt'>): UserRecord {
    const record: UserRecord = { ...user, joinedAt: this.#timestamp() };
    this.#users.set(record.id, record);
    return record;
  }

  #timestamp(): string {
    return this.#now().toISOString();
  }
}

export function compareIds(a: string, b: string): number {
  const left = BigInt(a);
  const right = BigInt(b);
  return left < right ? -1 : left > right ? 1 : 0;
}
