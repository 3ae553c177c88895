/** The fake's in-memory records. Wire (JSON) shapes are built from these in wire.ts. */

export interface UserRecord {
  readonly id: string;
  readonly username: string;
  readonly bot: boolean;
  /** When the user joined the fake guild (every user is a member of it). */
  readonly joinedAt: string;
}

export const ChannelType = { GuildText: 0, DM: 1, PublicThread: 11, PrivateThread: 12 } as const;
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
  /** A DM's person (the bot is the other side); absent for guild channels and threads. */
  readonly recipientId?: string;
  /**
   * A text channel of a server the bot is not in, where a person uses the app installed to
   * their account: the bot sees no events there and may not read or post in it. Whether the
   * server lets its members' apps answer publicly (Use External Apps).
   */
  readonly elsewhere?: { readonly guildId: string; readonly externalApps: boolean };
}

export interface AttachmentRecord {
  readonly id: string;
  readonly filename: string;
  readonly contentType: string;
  /** Discord leaves `content_type` out for some uploads: then the wire shows none. */
  readonly contentTypeShown?: boolean;
  /** Attachment flags (IS_SPOILER 8, IS_ANIMATED 32…). */
  readonly flags?: number;
  /** Visible only while its ephemeral message is (`ephemeral: true` on the wire). */
  readonly ephemeral?: boolean;
  /** The recording of a voice message: its length and a sampled waveform. */
  readonly voice?: { readonly durationSecs: number; readonly waveform: string };
  readonly size: number;
  /** Present for images whose header the fake could read (PNG, JPEG, GIF, WebP). */
  readonly width?: number;
  readonly height?: number;
  readonly description?: string;
  /** Download URL on the fake's CDN path, unsigned: every message rendered carries it signed afresh. */
  readonly url: string;
  readonly bytes: Buffer;
}

export interface MessageReferenceRecord {
  readonly messageId: string;
  readonly channelId: string;
}

export const InteractionType = { ApplicationCommand: 2, MessageComponent: 3, ModalSubmit: 5 } as const;
export type InteractionTypeValue = (typeof InteractionType)[keyof typeof InteractionType];

export const CommandType = { ChatInput: 1, Message: 3 } as const;

/** What a message made through an interaction says about it (`interaction_metadata`). */
export interface InteractionMetadataRecord {
  readonly interactionId: string;
  readonly type: InteractionTypeValue;
  readonly userId: string;
  /** Application commands: the command's name and type. */
  readonly commandName?: string;
  readonly commandType?: number;
  /** Message commands: the message the command ran on. */
  readonly targetMessageId?: string;
  /** Component interactions: the message that carried the component. */
  readonly interactedMessageId?: string;
  /** Modal submits: the interaction that opened the modal. */
  readonly trigger?: InteractionMetadataRecord;
  /** Follow-ups: the interaction's original response, when it has one. */
  readonly originalResponseMessageId?: string | null;
}

/** A previous version of an edited message, oldest first in `MessageRecord.history`. */
export interface MessageVersion {
  readonly content: string;
  readonly attachments: readonly AttachmentRecord[];
  readonly embeds: readonly unknown[];
  /** When this version was current from (creation or the previous edit). */
  readonly since: string;
}

export const MessageType = { Default: 0, Reply: 19, ChatInputCommand: 20, ContextMenuCommand: 23 } as const;

export const MessageFlags = { Ephemeral: 1 << 6, Loading: 1 << 7, IsVoiceMessage: 1 << 13 } as const;

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
  /** Emoji the bot reacted with, in order. */
  readonly botReactions: string[];
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

/** What the user did: ran a command, pressed a button, or submitted a modal. */
export type InteractionData =
  | {
      readonly kind: 'chat-input';
      readonly commandId: string;
      readonly commandName: string;
      /** The subcommand run, when the command has them: `options` are then its options. */
      readonly subcommand?: string;
      readonly options: Readonly<Record<string, string | number | boolean>>;
    }
  | {
      readonly kind: 'message-command';
      readonly commandId: string;
      readonly commandName: string;
      readonly targetMessageId: string;
    }
  | {
      readonly kind: 'component';
      readonly customId: string;
      readonly componentType: number;
      readonly messageId: string;
    }
  | {
      readonly kind: 'modal-submit';
      readonly customId: string;
      /** Each text input's value by its `custom_id`, in the modal's order. */
      readonly values: Readonly<Record<string, string>>;
      /** Each string select's chosen values by its `custom_id`. */
      readonly selections: Readonly<Record<string, readonly string[]>>;
      /** The message of the component that opened the modal; null when a command opened it. */
      readonly messageId: string | null;
      /** The interaction that answered with the modal. */
      readonly openedBy: string;
    };

/** One text input of a modal as the bot sent it. */
export interface TextInputRecord {
  readonly customId: string;
  /** Sent inside a Label (type 18) rather than an action row: the submission keeps the same shape. */
  readonly inLabel: boolean;
  readonly label: string;
  /** 1 short, 2 paragraph. */
  readonly style: number;
  readonly required: boolean;
  readonly minLength: number;
  readonly maxLength: number;
  /** Pre-filled text. */
  readonly value: string | undefined;
  /** Shown in the empty input; the Label's description under its text. */
  readonly placeholder?: string;
  readonly description?: string;
}

/** One string select of a modal (inside a Label) as the bot sent it. */
export interface SelectRecord {
  readonly customId: string;
  /** The Label's text. */
  readonly label: string;
  readonly options: readonly { readonly label: string; readonly value: string; readonly default: boolean }[];
  readonly minValues: number;
  readonly maxValues: number;
  readonly required: boolean;
  /** The Label's description under its text. */
  readonly description?: string;
}

/** A modal the bot opened (callback type 9), shown to the user until submitted or closed. */
export interface ModalRecord {
  readonly customId: string;
  readonly title: string;
  /** Its Text Display components' Markdown, in order (they come before the fields in our modals). */
  readonly texts: readonly string[];
  readonly inputs: readonly TextInputRecord[];
  readonly selects: readonly SelectRecord[];
  /** The `custom_id`s of its inputs and selects, in the modal's order (the submit keeps it). */
  readonly order: readonly string[];
  /** The submit Discord accepted (acknowledged): the modal closed with it. */
  closedBy: string | null;
}

export interface InteractionRecord {
  readonly id: string;
  readonly token: string;
  readonly type: InteractionTypeValue;
  readonly data: InteractionData;
  readonly channelId: string;
  readonly user: UserRecord;
  readonly createdAt: number;
  status: InteractionStatus;
  /** When the first callback arrived (ms since the epoch), to check the 3 s window. */
  acknowledgedAt: number | null;
  /** Callback type the bot answered with: 4 (message), 5 (deferred), 6 (deferred update), 7 (update) or 9 (modal). */
  responseType: number | null;
  /**
   * The response message (`@original`), once there is one: a new message for 4 and 5, the
   * component's own message for 6 and 7, none for 9.
   */
  originalMessageId: string | null;
  readonly followUpMessageIds: string[];
  /** Visible only to the invoking user: not dispatched to the channel. */
  ephemeral: boolean;
  /** The modal this interaction answered with (callback 9). */
  modal: ModalRecord | null;
}
