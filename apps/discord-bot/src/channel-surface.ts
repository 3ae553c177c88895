import type { AttachmentRef, ChatSurface, ChatTarget, DownloadedFile, MessageRef, ThreadMessage, UploadFile } from '@genbot/core';
import type { Client, Message, MessageCreateOptions, SendableChannels } from 'discord.js';
import { DiscordCallError, discordCall } from './discord-errors.js';
import { downloadAttachment } from './download.js';
import { discordLimits } from './limits.js';
import { formatMarkdown } from './markdown.js';
import { toThreadMessage } from './thread-message.js';
import { toUploads } from './uploads.js';

/** One page of channel history: a thread's recent past is plenty for a conversation. */
const MAX_THREAD_MESSAGES = 100;
/** Replies followed up a reply chain; each is one request. */
const MAX_REPLY_CHAIN = 25;
const UNKNOWN_MESSAGE = 10008;

/** Newest-first API order to oldest first, by snowflake. */
function oldestFirst(messages: Iterable<Message>): Message[] {
  return [...messages].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}

/**
 * ChatSurface over channel messages, for mentions. A target's `threadId` is
 * the message being answered: posts reply to it, and outside thread channels
 * the conversation is its reply chain.
 */
export class ChannelSurface implements ChatSurface {
  readonly limits = discordLimits();
  readonly #client: Client<true>;

  constructor(client: Client<true>) {
    this.#client = client;
  }

  formatMarkdown(markdown: string): string {
    return formatMarkdown(markdown);
  }

  async post(target: ChatTarget, text: string): Promise<MessageRef> {
    const message = await this.#send(target, { content: text });
    return { channelId: message.channelId, threadId: target.threadId, messageId: message.id };
  }

  async edit(message: MessageRef, text: string): Promise<void> {
    const channel = await this.#channel(message.channelId);
    await discordCall(() => channel.messages.edit(message.messageId, { content: text }));
  }

  async delete(message: MessageRef): Promise<void> {
    const channel = await this.#channel(message.channelId);
    await discordCall(() => channel.messages.delete(message.messageId));
  }

  async uploadFiles(target: ChatTarget, files: readonly UploadFile[], comment: string): Promise<void> {
    await this.#send(target, { content: comment, files: toUploads(files) });
  }

  async readThread(target: ChatTarget, options: { signal?: AbortSignal } = {}): Promise<ThreadMessage[]> {
    const channel = await this.#channel(target.channelId);
    const selfId = this.#client.user.id;
    if (channel.isThread()) {
      const fetched = await discordCall(() => channel.messages.fetch({ limit: MAX_THREAD_MESSAGES }));
      options.signal?.throwIfAborted();
      // A thread started from a message lives under it: that message opens the conversation.
      const starter = await channel.fetchStarterMessage().catch(() => null);
      const messages = oldestFirst(fetched.values());
      return [...(starter === null ? [] : [starter]), ...messages].map((message) => toThreadMessage(message, selfId));
    }
    if (target.threadId === undefined) return [];
    return (await this.#replyChain(channel, target.threadId, options.signal)).map((message) => toThreadMessage(message, selfId));
  }

  download(attachment: AttachmentRef, options?: { signal?: AbortSignal }): Promise<DownloadedFile> {
    return downloadAttachment(attachment, options);
  }

  async showProgress(target: ChatTarget): Promise<void> {
    const channel = await this.#channel(target.channelId);
    await discordCall(() => channel.sendTyping());
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
    const reply = target.threadId === undefined ? {} : { reply: { messageReference: target.threadId, failIfNotExists: false } };
    return discordCall<Message>(() => channel.send({ ...options, ...reply }));
  }

  async #channel(channelId: string): Promise<SendableChannels> {
    const channel = await discordCall(() => this.#client.channels.fetch(channelId));
    if (channel === null || !channel.isSendable()) throw new Error(`channel ${channelId} takes no messages`);
    return channel;
  }
}
