import { randomBytes } from 'node:crypto';
import { createAttachment } from './attachments.js';
import type { FakeContext } from './context.js';
import type { UserRef } from './guild-state.js';
import { buttonIds, ComponentType } from './components.js';
import {
  ChannelType,
  CommandType,
  InteractionType,
  MessageFlags,
  MessageType,
  type ChannelRecord,
  type CommandOptionRecord,
  type CommandRecord,
  type InteractionData,
  type InteractionRecord,
  type MessageRecord,
  type SelectRecord,
} from './model.js';
import { mentionedUsers, postMessage } from './message-ops.js';
import { MAX_CONTENT_LENGTH, messagePayloadSchema, parseBody } from './schemas.js';
import { createThread } from './thread-ops.js';

export interface UserAttachment {
  readonly filename: string;
  /** Sniffed from the bytes when omitted; `null`: Discord sends no `content_type` at all, as it does for some uploads. */
  readonly contentType?: string | null;
  readonly bytes: Uint8Array;
  /** Attachment flags as Discord sets them (IS_SPOILER 8…). */
  readonly flags?: number;
  /** An ephemeral attachment. */
  readonly ephemeral?: boolean;
  /** The message is a voice message and this its recording (IS_VOICE_MESSAGE on the message). */
  readonly voice?: { readonly durationSecs: number; readonly waveform: string };
}

export interface UserSays {
  readonly user: UserRef;
  /** A channel or thread ID, or the ID of this person's DM with the bot (`dmChannelId`). */
  readonly channelId: string;
  readonly content: string;
  /** Makes the message a reply (type 19) to this message in the same channel. */
  readonly replyTo?: string;
  readonly attachments?: readonly UserAttachment[];
}

export interface UserRunsCommand {
  readonly user: UserRef;
  readonly channelId: string;
  /** A registered chat-input command (guild commands first, then global). */
  readonly name: string;
  /** One of the command's subcommands (`/genbot set`): `options` are then that subcommand's. */
  readonly subcommand?: string;
  readonly options?: Readonly<Record<string, string | number | boolean>>;
}

export interface UserRunsMessageCommand {
  readonly user: UserRef;
  readonly channelId: string;
  /** The message right-clicked (Apps menu). */
  readonly messageId: string;
  /** A registered message command (type 3), by its display name (`Edit image`). */
  readonly name: string;
}

export interface AppPosts {
  /** The other app's bot user, by name (made on first use). */
  readonly app: string;
  readonly channelId: string;
  readonly content: string;
  /** The `custom_id`s of one row of buttons. */
  readonly buttonIds: readonly string[];
}

export interface UserClicks {
  readonly user: UserRef;
  readonly channelId: string;
  readonly messageId: string;
  /** The `custom_id` of an enabled button on that message. */
  readonly customId: string;
}

export interface UserSubmitsModal {
  /** The interaction that the bot answered with the modal. */
  readonly interactionId: string;
  /**
   * Text typed per input `custom_id`, or the values picked per select `custom_id`; inputs left
   * out keep their pre-filled value (or stay empty), selects their default options.
   */
  readonly values: Readonly<Record<string, string | readonly string[]>>;
  /**
   * A forged submission: this `custom_id` instead of the modal's, as a modified client or a
   * replayed request could send; Discord's own client never does.
   */
  readonly forgedCustomId?: string;
}

export interface UserCreatesThread {
  readonly user?: UserRef;
  /** The parent text channel. */
  readonly channelId: string;
  readonly name: string;
  /** Start the thread from this message of the parent channel. */
  readonly fromMessageId?: string;
}

/** Test-side actions: what users do in the guild, each stored and dispatched like Discord would. */
export class Driver {
  readonly #ctx: FakeContext;
  readonly #deadlines = new Set<NodeJS.Timeout>();

  constructor(ctx: FakeContext) {
    this.#ctx = ctx;
  }

  userSays(input: UserSays): MessageRecord {
    const { state } = this.#ctx;
    const channel = this.#channel(input.channelId);
    if (input.content.length > MAX_CONTENT_LENGTH) throw new Error(`content over ${MAX_CONTENT_LENGTH} characters`);
    if (input.replyTo !== undefined && !state.message(channel.id, input.replyTo)) {
      throw new Error(`no message ${input.replyTo} in channel ${channel.id}`);
    }
    const author = state.user(input.user);
    if (channel.type === ChannelType.DM && author.id !== channel.recipientId) {
      throw new Error(`${author.username} is not in the DM ${channel.id}: a DM is the bot and one person`);
    }
    const repliedTo = input.replyTo === undefined ? undefined : state.message(channel.id, input.replyTo);
    const mentions = mentionedUsers(state, input.content);
    if (repliedTo && !mentions.includes(repliedTo.author.id)) mentions.push(repliedTo.author.id);
    const message = state.addMessage({
      channelId: channel.id,
      author,
      content: input.content,
      attachments: (input.attachments ?? []).map((attachment) => ({
        ...createAttachment(
          {
            filename: attachment.filename,
            contentType: attachment.contentType ?? undefined,
            bytes: Buffer.from(attachment.bytes),
          },
          channel.id,
          this.#ctx.ids,
          this.#ctx.origin,
        ),
        ...(attachment.contentType === null ? { contentTypeShown: false } : {}),
        ...(attachment.flags === undefined ? {} : { flags: attachment.flags }),
        ...(attachment.ephemeral === true ? { ephemeral: true } : {}),
        ...(attachment.voice === undefined ? {} : { voice: attachment.voice }),
      })),
      ...((input.attachments ?? []).some((attachment) => attachment.voice !== undefined)
        ? { flags: MessageFlags.IsVoiceMessage }
        : {}),
      mentions,
      reference: repliedTo ? { messageId: repliedTo.id, channelId: channel.id } : null,
      type: repliedTo ? MessageType.Reply : MessageType.Default,
    });
    this.#ctx.events.messageCreate(message);
    return message;
  }

  /** A user edits their own message: MESSAGE_UPDATE. */
  userEdits(input: { channelId: string; messageId: string; content: string }): MessageRecord {
    const message = this.#message(input.channelId, input.messageId);
    this.#ctx.state.editMessage(message, { content: input.content });
    this.#ctx.events.messageUpdate(message);
    return message;
  }

  /** A user deletes a message: MESSAGE_DELETE. */
  userDeletes(input: { channelId: string; messageId: string }): void {
    const message = this.#message(input.channelId, input.messageId);
    this.#ctx.state.deleteMessage(message);
    this.#ctx.events.messageDelete(message);
  }

  /**
   * A user runs a slash command: INTERACTION_CREATE with a fresh ID and token. Like the Discord
   * client, it refuses unregistered commands, unknown options, missing required ones and values
   * outside the choices. The interaction expires if no callback arrives within the deadline.
   */
  userRunsCommand(input: UserRunsCommand): InteractionRecord {
    const channel = this.#channel(input.channelId);
    const command = this.#command(input.name, CommandType.ChatInput, channel);
    if (!command) throw new Error(`/${input.name} is not registered for this channel`);
    const options = input.options ?? {};
    const optionTypes = checkOptions(command, options, input.subcommand);
    return this.#interact(
      InteractionType.ApplicationCommand,
      {
        kind: 'chat-input',
        commandId: command.id,
        commandName: command.name,
        ...(input.subcommand === undefined ? {} : { subcommand: input.subcommand }),
        options,
      },
      channel,
      input.user,
      optionTypes,
    );
  }

  /** A user picks a message command from a message's Apps menu: INTERACTION_CREATE with the message resolved. */
  userRunsMessageCommand(input: UserRunsMessageCommand): InteractionRecord {
    const channel = this.#channel(input.channelId);
    const target = this.#message(channel.id, input.messageId);
    const command = this.#command(input.name, CommandType.Message, channel);
    if (!command) throw new Error(`message command "${input.name}" is not registered for this channel`);
    return this.#interact(
      InteractionType.ApplicationCommand,
      { kind: 'message-command', commandId: command.id, commandName: command.name, targetMessageId: target.id },
      channel,
      input.user,
    );
  }

  /**
   * Another app (a second bot) posts a message with buttons: MESSAGE_CREATE. Discord sends a
   * press on it to that app; `userClicks` on it reaches this bot instead, as a misrouted or
   * forged press would, so a test can show the bot refusing it.
   */
  appPosts(input: AppPosts): MessageRecord {
    const channel = this.#channel(input.channelId);
    const buttons = input.buttonIds.map((id) => ({ type: ComponentType.Button, style: 2, custom_id: id, label: id }));
    return postMessage(this.#ctx, {
      channelId: channel.id,
      author: this.#ctx.state.user({ username: input.app, bot: true }),
      payload: parseBody(messagePayloadSchema, {
        content: input.content,
        components: [{ type: ComponentType.ActionRow, components: buttons }],
      }),
      files: new Map(),
    });
  }

  /**
   * A user presses a button: MESSAGE_COMPONENT with the message it is on. Like the Discord client,
   * only an enabled button that message carries can be pressed.
   */
  userClicks(input: UserClicks): InteractionRecord {
    const channel = this.#channel(input.channelId);
    const message = this.#message(channel.id, input.messageId);
    if (!buttonIds(message.components).includes(input.customId)) {
      throw new Error(`message ${message.id} has no enabled button ${input.customId}`);
    }
    return this.#interact(
      InteractionType.MessageComponent,
      { kind: 'component', customId: input.customId, componentType: ComponentType.Button, messageId: message.id },
      channel,
      input.user,
    );
  }

  /**
   * The user who saw a modal presses Submit: MODAL_SUBMIT, a new interaction. Like the Discord
   * client, it checks required inputs and lengths; a modal stays open (and can be submitted
   * again) until a submit is answered.
   */
  userSubmitsModal(input: UserSubmitsModal): InteractionRecord {
    const opener = this.#ctx.state.interaction(input.interactionId);
    const modal = opener?.modal;
    if (!opener || !modal) throw new Error(`interaction ${input.interactionId} opened no modal`);
    if (modal.closedBy !== null) throw new Error(`the modal of ${input.interactionId} was closed by ${modal.closedBy}`);
    const values: Record<string, string> = {};
    for (const name of Object.keys(input.values)) {
      if (!modal.order.includes(name)) throw new Error(`the modal has no input ${name}`);
    }
    for (const field of modal.inputs) {
      const typed = input.values[field.customId];
      if (typed !== undefined && typeof typed !== 'string') throw new Error(`input ${field.customId} takes text`);
      const value = typed ?? field.value ?? '';
      if (field.required && value === '') throw new Error(`input ${field.customId} is required`);
      if (value !== '' && (value.length < field.minLength || value.length > field.maxLength)) {
        throw new Error(`input ${field.customId} takes ${field.minLength} to ${field.maxLength} characters`);
      }
      values[field.customId] = value;
    }
    const selections: Record<string, readonly string[]> = {};
    for (const select of modal.selects) selections[select.customId] = picked(select, input.values[select.customId]);
    const channel = this.#channel(opener.channelId);
    const messageId = opener.data.kind === 'component' ? opener.data.messageId : null;
    return this.#interact(
      InteractionType.ModalSubmit,
      {
        kind: 'modal-submit',
        customId: input.forgedCustomId ?? modal.customId,
        values,
        selections,
        messageId,
        openedBy: opener.id,
      },
      channel,
      { username: opener.user.username, id: opener.user.id },
    );
  }

  /**
   * The gateway delivers an event again, as Discord may after a resume: the
   * same message (MESSAGE_CREATE) or interaction (INTERACTION_CREATE), same ids.
   */
  redeliver(input: { channelId: string; messageId: string } | { interactionId: string }): void {
    if ('messageId' in input) {
      this.#ctx.events.messageCreate(this.#message(input.channelId, input.messageId));
      return;
    }
    const interaction = this.#ctx.state.interaction(input.interactionId);
    if (!interaction) throw new Error(`no interaction ${input.interactionId}`);
    let optionTypes = new Map<string, number>();
    if (interaction.data.kind === 'chat-input') {
      const { commandId } = interaction.data;
      const command = [...this.#ctx.state.guildCommands, ...this.#ctx.state.globalCommands].find(
        (candidate) => candidate.id === commandId,
      );
      if (!command) throw new Error(`the command of interaction ${input.interactionId} is gone`);
      optionTypes = checkOptions(command, interaction.data.options, interaction.data.subcommand);
    }
    this.#ctx.events.interactionCreate(interaction, optionTypes);
  }

  createThread(input: UserCreatesThread): ChannelRecord {
    const channel = this.#channel(input.channelId);
    if (input.fromMessageId !== undefined) this.#message(channel.id, input.fromMessageId);
    return createThread(this.#ctx, {
      parentId: channel.id,
      name: input.name,
      ownerId: this.#ctx.state.user(input.user ?? 'thread-starter').id,
      fromMessageId: input.fromMessageId,
    });
  }

  /** Stops the interaction deadline timers. */
  close(): void {
    for (const deadline of this.#deadlines) clearTimeout(deadline);
    this.#deadlines.clear();
  }

  /** Stores and dispatches a new interaction; it expires if no callback arrives within the deadline. */
  #interact(
    type: InteractionRecord['type'],
    data: InteractionData,
    channel: ChannelRecord,
    user: UserRef,
    optionTypes: ReadonlyMap<string, number> = new Map(),
  ): InteractionRecord {
    const interaction: InteractionRecord = {
      id: this.#ctx.ids(),
      token: `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`,
      type,
      data,
      channelId: channel.id,
      user: this.#ctx.state.user(user),
      createdAt: this.#ctx.now(),
      status: 'pending',
      acknowledgedAt: null,
      responseType: null,
      originalMessageId: null,
      followUpMessageIds: [],
      ephemeral: false,
      modal: null,
    };
    this.#ctx.state.addInteraction(interaction);
    const deadline = setTimeout(() => {
      this.#deadlines.delete(deadline);
      if (interaction.status !== 'pending') return;
      interaction.status = 'expired';
      this.#ctx.logger.info({ interactionId: interaction.id, kind: data.kind }, 'interaction expired unanswered');
    }, this.#ctx.interactionDeadlineMs + 1);
    deadline.unref();
    this.#deadlines.add(deadline);
    this.#ctx.events.interactionCreate(interaction, optionTypes);
    return interaction;
  }

  /**
   * A registered command of that type the channel offers: in the guild, guild commands first,
   * then global ones; in the bot's DM, global ones whose `contexts` include it (1; all of them
   * when unset) and that `dm_permission: false` does not keep out.
   */
  #command(name: string, type: number, channel: ChannelRecord): CommandRecord | undefined {
    const { state } = this.#ctx;
    let offered: CommandRecord[];
    if (channel.type === ChannelType.DM) offered = state.globalCommands.filter((command) => availableInBotDm(command));
    else if (channel.elsewhere !== undefined) offered = state.globalCommands.filter(availableToUserInstallInGuild);
    else offered = [...state.guildCommands, ...state.globalCommands];
    return offered.find((candidate) => candidate.name === name && candidate.type === type);
  }

  #channel(channelId: string): ChannelRecord {
    const channel = this.#ctx.state.channel(channelId);
    if (!channel) throw new Error(`no channel or thread ${channelId}`);
    return channel;
  }

  #message(channelId: string, messageId: string): MessageRecord {
    const message = this.#ctx.state.message(this.#channel(channelId).id, messageId);
    if (!message) throw new Error(`no message ${messageId} in channel ${channelId}`);
    return message;
  }
}

/** Interaction context 1: the DM with the app's bot user. */
const BOT_DM_CONTEXT = 1;

function availableInBotDm(command: CommandRecord): boolean {
  if (command.dm_permission === false) return false;
  return !Array.isArray(command.contexts) || command.contexts.includes(BOT_DM_CONTEXT);
}

const USER_INSTALL = 1;
const GUILD_CONTEXT = 0;

/**
 * In a server the bot is not in, the person's own install offers the global commands made for
 * user installs (`integration_types` with 1; unset means the server install only) and for
 * servers (`contexts` with 0; unset means every context).
 */
function availableToUserInstallInGuild(command: CommandRecord): boolean {
  if (!Array.isArray(command.integration_types) || !command.integration_types.includes(USER_INSTALL)) return false;
  return !Array.isArray(command.contexts) || command.contexts.includes(GUILD_CONTEXT);
}

/** Option type 1: a subcommand, whose own options are what the person fills in. */
const SUBCOMMAND = 1;

/**
 * What a select submits, as the Discord client lets a person pick: values among its options,
 * as many as it takes; untouched, its default options.
 */
function picked(select: SelectRecord, chosen: string | readonly string[] | undefined): readonly string[] {
  const values =
    chosen === undefined
      ? select.options.filter((option) => option.default).map((option) => option.value)
      : typeof chosen === 'string'
        ? [chosen]
        : chosen;
  for (const value of values) {
    if (!select.options.some((option) => option.value === value)) {
      throw new Error(`select ${select.customId} has no option ${value}`);
    }
  }
  const least = select.required ? Math.max(select.minValues, 1) : 0;
  if (values.length < least || values.length > select.maxValues) {
    throw new Error(`select ${select.customId} takes ${least} to ${select.maxValues} values`);
  }
  return values;
}

/**
 * Validates the options like the Discord client would; returns each option's wire type. A
 * command with subcommands is run as one of them, and takes that one's options.
 */
function checkOptions(
  command: CommandRecord,
  values: Readonly<Record<string, string | number | boolean>>,
  subcommand?: string,
): Map<string, number> {
  const subcommands = command.options.filter((option) => option.type === SUBCOMMAND);
  if (subcommands.length > 0 || subcommand !== undefined) {
    const chosen = subcommands.find((option) => option.name === subcommand);
    if (!chosen) throw new Error(`/${command.name} is run as one of its subcommands, not ${String(subcommand)}`);
    const options = Array.isArray(chosen.options) ? (chosen.options as CommandOptionRecord[]) : [];
    return checkOptions({ ...command, name: `${command.name} ${chosen.name}`, options }, values);
  }
  const types = new Map<string, number>();
  const byName = new Map<string, CommandOptionRecord>(command.options.map((option) => [option.name, option]));
  for (const option of command.options) {
    if (option.required === true && values[option.name] === undefined) {
      throw new Error(`/${command.name}: option ${option.name} is required`);
    }
  }
  for (const [name, value] of Object.entries(values)) {
    const option = byName.get(name);
    if (!option) throw new Error(`/${command.name} has no option ${name}`);
    const expected = option.type === 4 || option.type === 10 ? 'number' : option.type === 5 ? 'boolean' : 'string';
    if (typeof value !== expected) throw new Error(`/${command.name}: option ${name} takes a ${expected}`);
    if (option.choices && !option.choices.some((choice) => choice.value === value)) {
      throw new Error(`/${command.name}: ${String(value)} is not a choice of ${name}`);
    }
    types.set(name, option.type);
  }
  return types;
}
