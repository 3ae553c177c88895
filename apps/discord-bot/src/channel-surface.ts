import type {
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  PostedImage,
  ResultButton,
  ThreadMessage,
  UploadFile,
  UploadReceipt,
} from '@genbot/core/surface';
import {
  type Channel,
  type Client,
  type Message,
  type MessageCreateOptions,
  Routes,
  type SendableChannels,
} from 'discord.js';
import { z } from 'zod';
import { isDirectMessage, readDirectMessages } from './direct-messages.js';
import { DiscordCallError, discordCall } from './discord-errors.js';
import { downloadAttachment, encodeLocation, type AttachmentLocation } from './download.js';
import { discordLimits } from './limits.js';
import { actionRows } from './results/action-rows.js';
import { toThreadMessage } from './thread-message.js';
import { TURNED_AWAY } from './turned-away.js';
import { toUploads, uploadReceipt } from './uploads.js';

/** One page of channel history: a thread's recent past is plenty for a conversation. */
const MAX_THREAD_MESSAGES = 100;
/** Replies followed up a reply chain; each is one request. */
const MAX_REPLY_CHAIN = 25;
const UNKNOWN_MESSAGE = 10008;

/** Settles when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Newest-first API order to oldest first, by snowflake. */
function oldestFirst(messages: Iterable<Message>): Message[] {
  return [...messages].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}

/** What a raw channel says about where it lives, read before discord.js can build it without a gateway. */
const channelPlace = z.object({ guild_id: z.string().optional(), parent_id: z.string().nullish() });

/**
 * ChatSurface over channel messages, for mentions and DMs. A target's
 * `threadId` is the message being answered: posts reply to it; in a thread
 * channel the conversation is the thread, in a DM its recent messages, and
 * elsewhere the reply chain. Works over REST alone: the client may
 * be a gateway client or one that never logged in (a worker's).
 */
export class ChannelSurface implements ChatSurface {
  readonly platform = 'discord';
  readonly limits = discordLimits();
  /** A result is a message of its own here (its text, images and buttons): the progress message gives way to it. */
  readonly resultStandsAlone = true;
  readonly #client: Client;
  readonly #selfId: string;
  readonly #fetching = new Map<string, Promise<Channel | null>>();

  constructor(client: Client, selfId: string) {
    this.#client = client;
    this.#selfId = selfId;
  }

  async post(target: ChatTarget, text: string): Promise<MessageRef> {
    const message = await this.#send(target, { content: text });
    return { channelId: message.channelId, threadId: target.threadId, messageId: message.id };
  }

  async edit(message: MessageRef, text: string): Promise<void> {
    const channel = await this.#channel(message.channelId);
    await discordCall(() => channel.messages.edit(message.messageId, { content: text }));
  }

  async markTurnedAway(message: MessageRef): Promise<void> {
    const channel = await this.#channel(message.channelId);
    await discordCall(() => channel.messages.react(message.messageId, TURNED_AWAY));
  }

  async delete(message: MessageRef): Promise<void> {
    const channel = await this.#channel(message.channelId);
    await discordCall(() => channel.messages.delete(message.messageId));
  }

  /** One message with the files, and the result's buttons under them when given. */
  async uploadFiles(
    target: ChatTarget,
    files: readonly UploadFile[],
    comment: string,
    buttons: readonly ResultButton[] = [],
  ): Promise<UploadReceipt> {
    return uploadReceipt(
      await this.#send(target, { content: comment, files: toUploads(files), components: actionRows(buttons) }),
    );
  }

  async readThread(target: ChatTarget, options: { signal?: AbortSignal } = {}): Promise<ThreadMessage[]> {
    const channel = await this.#channel(target.channelId);
    const selfId = this.#selfId;
    if (channel.isThread()) {
      const fetched = await discordCall(() => channel.messages.fetch({ limit: MAX_THREAD_MESSAGES }));
      options.signal?.throwIfAborted();
      // A thread started from a message lives under it: that message opens the conversation.
      const starter = await channel.fetchStarterMessage().catch(() => null);
      const messages = oldestFirst(fetched.values());
      return [...(starter === null ? [] : [starter]), ...messages].map((message) => toThreadMessage(message, selfId));
    }
    if (target.threadId === undefined) return [];
    if (isDirectMessage(channel)) return readDirectMessages(channel, target.threadId, selfId, options.signal);
    return (await this.#replyChain(channel, target.threadId, options.signal)).map((message) =>
      toThreadMessage(message, selfId),
    );
  }

  /**
   * An image the bot posted, kept as its message and attachment ids: its
   * signed URL is read from the message when it is downloaded (it expires),
   * and a deleted message or attachment is told as such.
   */
  postedImage(image: PostedImage): AttachmentRef {
    return {
      id: encodeLocation({
        url: '',
        channelId: image.channelId,
        messageId: image.messageId,
        attachmentId: image.fileId,
      }),
      name: image.name,
      mimeType: image.mimeType,
      size: image.size,
    };
  }

  download(attachment: AttachmentRef, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
    return downloadAttachment(attachment, {
      apiOrigin: new URL(this.#client.rest.options.api).origin,
      refetch: (where) => this.#freshUrl(where),
      signal: options.signal,
    });
  }

  /** The attachment's URL as its message shows it now (signed URLs expire); undefined when it is gone. */
  async #freshUrl(where: AttachmentLocation): Promise<string | undefined> {
    const { channelId, messageId, attachmentId } = where;
    if (channelId === undefined || messageId === undefined || attachmentId === undefined) return undefined;
    try {
      const channel = await this.#channel(channelId);
      const message = await discordCall(() => channel.messages.fetch({ message: messageId, force: true }));
      return message.attachments.get(attachmentId)?.url;
    } catch (error) {
      if (error instanceof DiscordCallError && error.code === UNKNOWN_MESSAGE) return undefined;
      throw error;
    }
  }

  /**
   * Typing is a courtesy: once core aborts it, the call settles at once, and
   * a request discord.js still holds back (the bot's global limit, the typing
   * route's own) is dropped or goes out late, to show for a few seconds at
   * most; the reply never waits for it.
   */
  async showProgress(target: ChatTarget, options: { signal?: AbortSignal } = {}): Promise<void> {
    const { signal } = options;
    const typing = (async () => {
      await this.#channel(target.channelId);
      signal?.throwIfAborted();
      await discordCall(() =>
        this.#client.rest.post(Routes.channelTyping(target.channelId), signal === undefined ? {} : { signal }),
      );
    })();
    if (signal === undefined) return typing;
    // Settled either way; a typing that fails after the abort concerns no one.
    typing.catch(() => undefined);
    await Promise.race([typing, aborted(signal)]);
  }

  /** The message and the ones it replies to, up the chain, oldest first. */
  async #replyChain(channel: SendableChannels, messageId: string, signal: AbortSignal | undefined): Promise<Message[]> {
    const chain: Message[] = [];
    let next: string | undefined = messageId;
    while (next !== undefined && chain.length < MAX_REPLY_CHAIN) {
      signal?.throwIfAborted();
      const id: string = next;
      let message: Message;
      try {
        message = await discordCall(() => channel.messages.fetch(id));
      } catch (error) {
        // A deleted message ends the chain; what came after it still counts.
        if (chain.length > 0 && error instanceof DiscordCallError && error.code === UNKNOWN_MESSAGE) break;
        throw error;
      }
      chain.push(message);
      const reference = message.reference;
      next = reference !== null && reference.channelId === channel.id ? (reference.messageId ?? undefined) : undefined;
    }
    return chain.reverse();
  }

  async #send(target: ChatTarget, options: MessageCreateOptions): Promise<Message> {
    const channel = await this.#channel(target.channelId);
    const reply =
      target.threadId === undefined ? {} : { reply: { messageReference: target.threadId, failIfNotExists: false } };
    return discordCall<Message>(() => channel.send({ ...options, ...reply }));
  }

  async #channel(channelId: string): Promise<SendableChannels> {
    const channel = this.#client.channels.cache.get(channelId) ?? (await this.#fetchOnce(channelId));
    if (channel === null || !channel.isSendable()) throw new Error(`channel ${channelId} takes no messages`);
    return channel;
  }

  /**
   * One fetch of a channel at a time: the jobs that start together in a channel
   * the cache lacks (a worker's first minute) would each read it, spending the
   * bot's global request budget that their first words then wait for.
   */
  #fetchOnce(channelId: string): Promise<Channel | null> {
    let fetching = this.#fetching.get(channelId);
    if (fetching === undefined) {
      fetching = this.#fetchChannel(channelId).finally(() => this.#fetching.delete(channelId));
      this.#fetching.set(channelId, fetching);
    }
    return fetching;
  }

  /**
   * A channel the cache lacks (no gateway filled it): discord.js builds a
   * guild channel only once its guild is cached, and a thread finds its
   * starter message through its parent, so those are read first.
   */
  async #fetchChannel(channelId: string) {
    const raw = channelPlace.parse(await discordCall(() => this.#client.rest.get(Routes.channel(channelId))));
    const { guild_id: guildId, parent_id: parentId } = raw;
    if (guildId !== undefined)
      await discordCall(() => this.#client.guilds.fetch({ guild: guildId, withCounts: false }));
    if (parentId != null && !this.#client.channels.cache.has(parentId)) {
      await discordCall(() => this.#client.channels.fetch(parentId));
    }
    return discordCall(() => this.#client.channels.fetch(channelId));
  }
}
