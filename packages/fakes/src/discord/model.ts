/** The fake's in-memory records. Wire (JSON) shapes are built from these in wire.ts. */

export interface UserRecord {
  readonly id: string;
  readonly username: string;
  readonly bot: boolean;
  /** When the user joined the fake guild (every user is a member of it). */
  readonly joinedAt: string;
}

export const ChannelType = { GuildText: 0, PublicThread: 11, PrivateThread: 12 } as const;
export type ChannelTypeValue = (typeof ChannelType)[keyof typeof ChannelType];

export interface ChannelRecord {
  readonly id: string;
  readonly type: ChannelTypeValue;
  readonly name: string;
  readonly position: number;
  /** Parent text channel for threads, null for guild channels. */
  readonly parentId: string | null;
  /** Who created a thread; null for guild channels. */
  readonly ownerId: string | null;
  readonly createdAt: string;
  readonly autoArchiveDuration: number;
}

export interface AttachmentRecord {
  readonly id: string;
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  /** Present for images whose header the fake could read (PNG, JPEG, GIF, WebP). */
  readonly width?: number;
  readonly height?: number;
  readonly description?: string;
  /** Download URL on the fake's CDN path (no authentication, like Discord's attachment URLs). */
  readonly url: string;
  readonly bytes: Buffer;
}

export interface MessageReferenceRecord {
  readonly messageId: string;
  readonly channelId: string;
}

export interface InteractionMetadataRecord {
  readonly interactionId: string;
  readonly commandName: string;
  readonly userId: string;
}

/** A previous version of an edited message, oldest first in `MessageRecord.history`. */
export interface MessageVersion {
  readonly content: string;
  readonly attachments: readonly AttachmentRecord[];
  readonly embeds: readonly unknown[];
  /** When this version was current from (creation or the previous edit). */
  readonly since: string;
}

export const MessageType = { Default: 0, Reply: 19, ChatInputCommand: 20 } as const;

export const MessageFlags = { Ephemeral: 1 << 6, Loading: 1 << 7 } as const;

export interface MessageRecord {
  readonly id: string;
  readonly channelId: string;
  readonly author: UserRecord;
  content: string;
  readonly timestamp: string;
  editedTimestamp: string | null;
  attachments: AttachmentRecord[];
  embeds: unknown[];
  components: unknown[];
  /** IDs of the users the message mentions. */
  mentions: string[];
  readonly reference: MessageReferenceRecord | null;
  readonly type: number;
  flags: number;
  readonly tts: boolean;
  /** The application ID for messages posted through an interaction webhook. */
  readonly webhookId: string | null;
  readonly interaction: InteractionMetadataRecord | null;
  readonly history: MessageVersion[];
}

export interface CommandOptionRecord {
  readonly type: number;
  readonly name: string;
  readonly required?: boolean | undefined;
  readonly choices?: readonly { readonly name: string; readonly value: string | number }[] | undefined;
  readonly [key: string]: unknown;
}

/** An application command as stored: the registered JSON plus the fields Discord assigns. */
export interface CommandRecord {
  readonly id: string;
  readonly application_id: string;
  readonly guild_id?: string;
  readonly name: string;
  readonly description: string;
  readonly type: number;
  readonly options: readonly CommandOptionRecord[];
  readonly version: string;
  readonly [key: string]: unknown;
}

export type InteractionStatus = 'pending' | 'acknowledged' | 'expired';

export interface InteractionRecord {
  readonly id: string;
  readonly token: string;
  readonly commandId: string;
  readonly commandName: string;
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly channelId: string;
  readonly user: UserRecord;
  readonly createdAt: number;
  status: InteractionStatus;
  /** When the first callback arrived (ms since the epoch), to check the 3 s window. */
  acknowledgedAt: number | null;
  /** Callback type the bot answered with: 4 (message) or 5 (deferred). */
  responseType: number | null;
  /** The response message (`@original`), once there is one. */
  originalMessageId: string | null;
  readonly followUpMessageIds: string[];
  /** Visible only to the invoking user: not dispatched to the channel. */
  ephemeral: boolean;
}
