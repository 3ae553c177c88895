import {
  asBuffer,
  createEditReplyWriter,
  type AttachmentRef,
  type ChatSurface,
  type ChatTarget,
  type DownloadedFile,
  type Logger,
  type MessageRef,
  type ReplyContext,
  type ReplyWriter,
  type SurfaceLimits,
  type ThreadMessage,
  type UploadFile,
} from '@genbot/core';
import type { webApi } from '@slack/bolt';
import { downloadSlackFile } from './download.js';
import { mentionedUserIds, plainText } from './mentions.js';
import { toMrkdwn } from './mrkdwn.js';
import { NativeStreamWriter, type StreamApi } from './native-stream-writer.js';
import { toAttachments } from './parse-files.js';
import { parsePostedTs, parseRepliesPage, type BotIdentity, type SlackThreadMessage } from './parse-thread.js';
import { slackCall } from './slack-errors.js';
import type { UserDirectory } from './user-directory.js';

export const SLACK_LIMITS: SurfaceLimits = {
  // Slack advises keeping a message under about 4,000 characters (it truncates at 40,000).
  maxMessageChars: 4_000,
  // chat.update is limited to about one a second per channel.
  minEditIntervalMs: 1_000,
  maxFilesPerMessage: 10,
  // Slack's per-file upload limit.
  maxUploadBytes: 1024 * 1024 * 1024,
};

const REPLIES_PAGE_SIZE = 200;

export interface SlackSurfaceOptions {
  client: webApi.WebClient;
  identity: BotIdentity;
  botToken: string;
  apiUrl: string;
  users: UserDirectory;
  streaming: 'edit' | 'native';
  logger: Logger;
}

/** Thrown when Slack answers a call with something the bot cannot read. */
export class SlackResponseError extends Error {
  override readonly name = 'SlackResponseError';
}

/**
 * ChatSurface over the Slack Web API. Threads are keyed by `thread_ts`;
 * messages by their `ts`. Text arrives here already in mrkdwn (core formats
 * with `formatMarkdown`), except native streams, which take Markdown.
 */
export class SlackSurface implements ChatSurface {
  readonly limits = SLACK_LIMITS;
  /** Only with `SLACK_STREAMING=native`; core edits messages in place otherwise. */
  readonly openReplyWriter?: (target: ChatTarget, context: ReplyContext) => ReplyWriter;
  readonly #o: SlackSurfaceOptions;

  constructor(options: SlackSurfaceOptions) {
    this.#o = options;
    if (options.streaming === 'native') this.openReplyWriter = (target, context) => this.#nativeWriter(target, context);
  }

  formatMarkdown(markdown: string): string {
    return toMrkdwn(markdown);
  }

  async post(target: ChatTarget, text: string): Promise<MessageRef> {
    const response = await slackCall('chat.postMessage', () =>
      this.#o.client.chat.postMessage({
        channel: target.channelId,
        text,
        unfurl_links: false,
        unfurl_media: false,
        ...(target.threadId === undefined ? {} : { thread_ts: target.threadId }),
      }),
    );
    return { channelId: target.channelId, threadId: target.threadId, messageId: this.#ts('chat.postMessage', response) };
  }

  async edit(message: MessageRef, text: string): Promise<void> {
    await slackCall('chat.update', () => this.#o.client.chat.update({ channel: message.channelId, ts: message.messageId, text }));
  }

  async delete(message: MessageRef): Promise<void> {
    await slackCall('chat.delete', () => this.#o.client.chat.delete({ channel: message.channelId, ts: message.messageId }));
  }

  async uploadFiles(target: ChatTarget, files: readonly UploadFile[], comment: string): Promise<void> {
    // files.uploadV2: getUploadURLExternal per file, the bytes to each upload URL, one completeUploadExternal.
    await slackCall('files.uploadV2', () =>
      this.#o.client.files.uploadV2({
        channel_id: target.channelId,
        initial_comment: comment,
        // A view of the same memory, not a copy: these are megabytes per image.
        file_uploads: files.map((file) => ({ file: asBuffer(file.bytes), filename: file.name, title: file.name })),
        ...(target.threadId === undefined ? {} : { thread_ts: target.threadId }),
      }),
    );
  }

  async readThread(target: ChatTarget, options: { signal?: AbortSignal } = {}): Promise<ThreadMessage[]> {
    if (target.threadId === undefined) return [];
    const raw: SlackThreadMessage[] = [];
    let cursor: string | undefined;
    do {
      options.signal?.throwIfAborted();
      const response = await slackCall('conversations.replies', () =>
        this.#o.client.conversations.replies({
          channel: target.channelId,
          ts: target.threadId ?? '',
          limit: REPLIES_PAGE_SIZE,
          ...(cursor === undefined ? {} : { cursor }),
        }),
      );
      const page = parseRepliesPage(response);
      if (!page.ok) {
        this.#o.logger.error({ problem: page.problem }, 'conversations.replies answered in an unexpected shape');
        throw new SlackResponseError(`conversations.replies answered in an unexpected shape (${page.problem})`);
      }
      raw.push(...page.value.messages);
      cursor = page.value.nextCursor;
    } while (cursor !== undefined);
    return this.toThreadMessages(raw);
  }

  /** Slack markup (user and channel mentions, links, escapes) as the plain text a model should read. */
  async readable(text: string): Promise<string> {
    const { identity, users } = this.#o;
    const names = await users.names(mentionedUserIds(text).filter((id) => id !== identity.userId));
    return plainText(text, identity.userId, names);
  }

  /** Slack messages as core sees them: authors named, mentions readable, files as attachments. */
  async toThreadMessages(messages: readonly SlackThreadMessage[]): Promise<ThreadMessage[]> {
    const { identity, users } = this.#o;
    const people = messages.flatMap((m) => [...(m.bot_id === undefined && m.user !== undefined ? [m.user] : []), ...mentionedUserIds(m.text)]);
    const names = await users.names(people.filter((id) => id !== identity.userId));
    return messages.map((message) => {
      const isSelf = message.bot_id === identity.botId || message.user === identity.userId;
      const isBot = isSelf || message.bot_id !== undefined || message.subtype === 'bot_message';
      const authorId = message.user ?? message.bot_id ?? 'unknown';
      const name = isSelf
        ? (identity.name ?? 'assistant')
        : isBot
          ? (message.bot_profile?.name ?? message.username ?? authorId)
          : (names.get(authorId) ?? authorId);
      return {
        id: message.ts,
        author: { id: authorId, name, isBot, isSelf },
        text: plainText(message.text, identity.userId, names),
        attachments: toAttachments(message.files),
      };
    });
  }

  download(attachment: AttachmentRef, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
    return downloadSlackFile(attachment.id, { botToken: this.#o.botToken, apiUrl: this.#o.apiUrl, signal: options.signal });
  }

  #ts(method: string, response: unknown): string {
    const ts = parsePostedTs(response);
    if (ts.ok) return ts.value;
    this.#o.logger.error({ method, problem: ts.problem }, 'Slack answered without a message ts');
    throw new SlackResponseError(`${method} answered without a message ts`);
  }

  #nativeWriter(target: ChatTarget, context: ReplyContext): ReplyWriter {
    const { client, identity, logger } = this.#o;
    const api: StreamApi = {
      setStatus: async (channel, threadTs, status) => {
        await slackCall('assistant.threads.setStatus', () => client.assistant.threads.setStatus({ channel_id: channel, thread_ts: threadTs, status }));
      },
      start: async ({ channel, threadTs, markdown, recipientUserId, recipientTeamId }) => {
        const response = await slackCall('chat.startStream', () =>
          client.chat.startStream({
            channel,
            thread_ts: threadTs,
            markdown_text: markdown,
            recipient_user_id: recipientUserId,
            recipient_team_id: recipientTeamId,
          }),
        );
        return this.#ts('chat.startStream', response);
      },
      append: async (channel, ts, markdown) => {
        await slackCall('chat.appendStream', () => client.chat.appendStream({ channel, ts, markdown_text: markdown }));
      },
      stop: async (channel, ts, markdown) => {
        await slackCall('chat.stopStream', () => client.chat.stopStream({ channel, ts, ...(markdown === undefined ? {} : { markdown_text: markdown }) }));
      },
    };
    return new NativeStreamWriter({
      api,
      channel: target.channelId,
      // Streams live in threads; a mention that starts none is answered under itself by the caller.
      threadTs: target.threadId ?? '',
      recipientUserId: context.recipientUserId,
      recipientTeamId: identity.teamId,
      logger,
      // Where Slack does not offer streaming, the reply still arrives: edited in place, as by default.
      fallback: () => createEditReplyWriter(this, target, { logger }),
    });
  }
}
