import { randomBytes } from 'node:crypto';
import { createAttachment } from './attachments.js';
import type { FakeContext } from './context.js';
import type { UserRef } from './guild-state.js';
import {
  MessageType,
  type ChannelRecord,
  type CommandOptionRecord,
  type CommandRecord,
  type InteractionRecord,
  type MessageRecord,
} from './model.js';
import { mentionedUsers } from './message-ops.js';
import { MAX_CONTENT_LENGTH } from './schemas.js';
import { createThread } from './thread-ops.js';

export interface UserAttachment {
  readonly filename: string;
  /** Sniffed from the bytes when omitted. */
  readonly contentType?: string;
  readonly bytes: Uint8Array;
}

export interface UserSays {
  readonly user: UserRef;
  /** A channel or thread ID. */
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
  readonly options?: Readonly<Record<string, string | number | boolean>>;
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
    const repliedTo = input.replyTo === undefined ? undefined : state.message(channel.id, input.replyTo);
    const mentions = mentionedUsers(state, input.content);
    if (repliedTo && !mentions.includes(repliedTo.author.id)) mentions.push(repliedTo.author.id);
    const message = state.addMessage({
      channelId: channel.id,
      author: state.user(input.user),
      content: input.content,
      attachments: (input.attachments ?? []).map((attachment) =>
        createAttachment(
          { filename: attachment.filename, contentType: attachment.contentType, bytes: Buffer.from(attachment.bytes) },
          channel.id,
          this.#ctx.ids,
          this.#ctx.origin,
        ),
      ),
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
    const { state } = this.#ctx;
    const channel = this.#channel(input.channelId);
    const command = [...state.guildCommands, ...state.globalCommands].find(
      (candidate) => candidate.name === input.name && candidate.type === 1,
    );
    if (!command) throw new Error(`/${input.name} is not registered (neither as a guild nor a global command)`);
    const options = input.options ?? {};
    const optionTypes = checkOptions(command, options);
    const interaction: InteractionRecord = {
      id: this.#ctx.ids(),
      token: `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`,
      commandId: command.id,
      commandName: command.name,
      options,
      channelId: channel.id,
      user: state.user(input.user),
      createdAt: this.#ctx.now(),
      status: 'pending',
      acknowledgedAt: null,
      responseType: null,
      originalMessageId: null,
      followUpMessageIds: [],
      ephemeral: false,
    };
    state.addInteraction(interaction);
    const deadline = setTimeout(() => {
      this.#deadlines.delete(deadline);
      if (interaction.status !== 'pending') return;
      interaction.status = 'expired';
      this.#ctx.logger.info({ interactionId: interaction.id, command: command.name }, 'interaction expired unanswered');
    }, this.#ctx.interactionDeadlineMs + 1);
    deadline.unref();
    this.#deadlines.add(deadline);
    this.#ctx.events.interactionCreate(interaction, optionTypes);
    return interaction;
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

/** Validates the options like the Discord client would; returns each option's wire type. */
function checkOptions(command: CommandRecord, values: Readonly<Record<string, string | number | boolean>>): Map<string, number> {
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
