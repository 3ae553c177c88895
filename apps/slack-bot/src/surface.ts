import type { CachedMessage, ThreadCache } from '@genbot/core/chat';
import type {
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  PostedImage,
  ReplyContext,
  ReplyStream,
  ResultButton,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
  UploadReceipt,
} from '@genbot/core/surface';
import { z } from 'zod';
import { AttachmentUnavailableError, GenBotError } from '@genbot/core/errors';
import type { Logger } from '@genbot/core/log';
import type { webApi } from '@slack/bolt';
import { downloadSlackFile } from './download.js';
import { mentionedUserIds, plainText } from './mentions.js';
import { toMrkdwn } from './mrkdwn.js';
import { uploadAsOneMessage } from './upload-files.js';
import { endNativeStream, nativeStream } from './native-stream.js';
import {
  fileAccess,
  fileToLookUp,
  parseFileInfo,
  toLookUp,
  unavailableAttachment,
  unavailableReason,
} from './parse-files.js';
import { resultBlocks } from './result-blocks.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { parsePostedTs, type BotIdentity } from './parse-thread.js';
import { slackCall } from './slack-errors.js';
import { SlackThreadReader } from './thread-reader.js';
import type { UserDirectory } from './user-directory.js';

export const SLACK_LIMITS: SurfaceLimits = {
  // Slack advises keeping a message under about 4,000 characters (it truncates at 40,000).
  maxMessageChars: 4_000,
  // chat.postMessage is limited to about one a second per channel (short bursts tolerated)...
  minPostIntervalMs: 1_000,
  // ...and so is chat.update.
  minEditIntervalMs: 1_000,
  // chat.postEphemeral is limited per workspace (Tier 4: 100+ a minute, generous bursts), not per channel:
  // a flood's private notes go out in bursts, and a 429 holds the channel's notes back as long as Slack asks.
  minPrivateIntervalMs: 20,
  maxFilesPerMessage: 10,
  // Slack's per-file upload limit.
  maxUploadBytes: 1024 * 1024 * 1024,
};

export interface SlackSurfaceOptions {
  client: webApi.WebClient;
  /** The bot's own ids in this workspace (auth.test, asked once when first needed). */
  identity: () => Promise<BotIdentity>;
  /** The workspace the surface answers in (native streams name their recipient's team). */
  teamId: string;
  /** The workspace's bot token (one for the deployment, or its installation's), for file downloads. */
  botToken: () => Promise<string>;
  apiUrl: string;
  users: UserDirectory;
  streaming: 'edit' | 'native';
  logger: Logger;
  /** What the bot's `message` events taught it of its threads: read before conversations.replies. */
  threads: ThreadCache;
}

/** Thrown when Slack answers a call with something the bot cannot read. */
export class SlackResponseError extends GenBotError {}

/**
 * ChatSurface over the Slack Web API. Threads are keyed by `thread_ts`;
 * messages by their `ts`. Core's text is standard Markdown, which messages
 * and native streams take as `markdown_text`; only upload comments
 * (`initial_comment`) are mrkdwn, so they alone are converted.
 */
export class SlackSurface implements ChatSurface {
  readonly platform = 'slack';
  readonly limits = SLACK_LIMITS;
  /** A result is a file message of its own, with its text and buttons: the job's progress message gives way to it. */
  readonly resultStandsAlone = true;
  /** Only with `SLACK_STREAMING=native`; core edits messages in place otherwise. */
  readonly openStream?: (target: ChatTarget, context: ReplyContext) => ReplyStream;
  readonly #o: SlackSurfaceOptions;
  readonly #reader: SlackThreadReader;

  constructor(options: SlackSurfaceOptions) {
    this.#o = options;
    this.#reader = new SlackThreadReader({
      replies: (args) => slackCall('conversations.replies', () => options.client.conversations.replies(args)),
      cache: options.threads,
      identity: options.identity,
      logger: options.logger,
    });
    if (options.streaming === 'native') {
      this.openStream = (target, context) =>
        nativeStream({
          client: options.client,
          channel: target.channelId,
          // Streams live in threads; a mention that starts none is answered under itself by the caller.
          threadTs: target.threadId ?? '',
          recipientUserId: context.recipientUserId,
          recipientTeamId: options.teamId,
          messageTs: (method, response) => this.#ts(method, response),
        });
    }
  }

  async post(target: ChatTarget, text: string): Promise<MessageRef> {
    const response = await slackCall('chat.postMessage', () =>
      this.#o.client.chat.postMessage({
        channel: target.channelId,
        markdown_text: text,
        unfurl_links: false,
        unfurl_media: false,
        ...(target.threadId === undefined ? {} : { thread_ts: target.threadId }),
      }),
    );
    return {
      channelId: target.channelId,
      threadId: target.threadId,
      messageId: this.#ts('chat.postMessage', response),
    };
  }

  async endStream(message: MessageRef): Promise<void> {
    await endNativeStream(this.#o.client, message.channelId, message.messageId);
  }

  async edit(message: MessageRef, text: string): Promise<void> {
    await slackCall('chat.update', () =>
      this.#o.client.chat.update({ channel: message.channelId, ts: message.messageId, markdown_text: text }),
    );
  }

  /** An ephemeral message; core paces it (`minPrivateIntervalMs`). */
  async postPrivate(target: ChatTarget, userId: string, text: string): Promise<void> {
    await slackCall('chat.postEphemeral', () =>
      this.#o.client.chat.postEphemeral({
        channel: target.channelId,
        user: userId,
        text: toMrkdwn(text),
        ...(target.threadId === undefined ? {} : { thread_ts: target.threadId }),
      }),
    );
  }

  async delete(message: MessageRef): Promise<void> {
    await slackCall('chat.delete', () =>
      this.#o.client.chat.delete({ channel: message.channelId, ts: message.messageId }),
    );
  }

  async uploadFiles(
    target: ChatTarget,
    files: readonly UploadFile[],
    comment: string,
    buttons: readonly ResultButton[] = [],
  ): Promise<UploadReceipt> {
    const text = toMrkdwn(comment);
    const fileIds = await uploadAsOneMessage(this.#o.client, files, {
      channel_id: target.channelId,
      // Slack ignores blocks when there is an initial comment: with buttons, the text is a block too.
      ...(buttons.length === 0 ? { initial_comment: text } : { blocks: resultBlocks(text, buttons) }),
      ...(target.threadId === undefined ? {} : { thread_ts: target.threadId }),
    });
    // completeUploadExternal names the files, not the message: the message's ts is in the file's shares.
    const messageId = fileIds[0] === undefined ? undefined : await this.#sharedAt(fileIds[0], target);
    return { fileIds, messageId };
  }

  /** A version's file, downloaded again through files.info (a deleted one is told as deleted). */
  postedImage(image: PostedImage): AttachmentRef {
    return { id: toLookUp(image.fileId ?? ''), name: image.name, mimeType: image.mimeType, size: image.size };
  }

  /**
   * The ts of the message that shows a file just shared into `target`, from
   * files.info's shares; Slack fills them in shortly after the upload, so a
   * few tries, then none (the version is still recorded by its file).
   */
  async #sharedAt(fileId: string, target: ChatTarget): Promise<string | undefined> {
    for (let attempt = 0; attempt < SHARE_LOOKUPS; attempt += 1) {
      if (attempt > 0) await sleep(SHARE_LOOKUP_GAP_MS * attempt);
      try {
        const response = await slackCall('files.info', () => this.#o.client.files.info({ file: fileId }));
        const ts = sharedTs(response, target.channelId);
        if (ts !== undefined) return ts;
      } catch (error) {
        this.#o.logger.warn({ err: error, fileId }, 'files.info failed while looking for the upload message');
        return undefined;
      }
    }
    this.#o.logger.warn({ fileId }, 'the upload message did not show in the file shares');
    return undefined;
  }

  async readThread(target: ChatTarget, options: { signal?: AbortSignal } = {}): Promise<ThreadMessage[]> {
    if (target.threadId === undefined) return [];
    const messages = await this.#reader.read(
      { channelId: target.channelId, threadId: target.threadId },
      options.signal,
    );
    return this.toThreadMessages(messages);
  }

  /** Slack markup (user and channel mentions, links, escapes) as the plain text a model should read. */
  async readable(text: string): Promise<string> {
    const { users } = this.#o;
    const identity = await this.#o.identity();
    const names = await users.names(mentionedUserIds(text).filter((id) => id !== identity.userId));
    return plainText(text, identity.userId, names);
  }

  /** Messages as core sees them: people named, mentions readable, Slack Connect files looked up. */
  async toThreadMessages(messages: readonly CachedMessage[]): Promise<ThreadMessage[]> {
    const { users } = this.#o;
    const identity = await this.#o.identity();
    const people = messages.flatMap((m) => [...(m.isBot ? [] : [m.authorId]), ...mentionedUserIds(m.text)]);
    const names = await users.names(people.filter((id) => id !== identity.userId));
    return Promise.all(
      messages.map(async (message) => ({
        id: message.id,
        author: {
          id: message.authorId,
          name: message.isSelf
            ? (identity.name ?? 'assistant')
            : message.isBot
              ? (message.authorName ?? message.authorId)
              : (names.get(message.authorId) ?? message.authorId),
          isBot: message.isBot,
          isSelf: message.isSelf,
        },
        text: plainText(message.text, identity.userId, names),
        attachments: await this.#lookUpAll(message.attachments),
      })),
    );
  }

  /** Slack Connect files carry only their ID: files.info tells the rest, or why the file cannot be had. */
  async #lookUpAll(attachments: readonly AttachmentRef[]): Promise<AttachmentRef[]> {
    return Promise.all(
      attachments.map(async (attachment) => {
        const fileId = fileToLookUp(attachment);
        if (fileId === undefined) return attachment;
        const found = await this.lookUpFile(fileId);
        if (found.kind === 'download') return found.attachment;
        return unavailableAttachment(attachment.name, found.kind === 'unavailable' ? found.reason : 'deleted');
      }),
    );
  }

  /** A file by ID through files.info (Slack Connect files show nothing else); a failed look-up counts as unavailable. */
  async lookUpFile(fileId: string): Promise<ReturnType<typeof fileAccess>> {
    try {
      const response = await slackCall('files.info', () => this.#o.client.files.info({ file: fileId }));
      const file = parseFileInfo(response);
      if (file !== undefined) return fileAccess({ ...file, file_access: undefined });
      this.#o.logger.warn({ fileId }, 'files.info answered without a file');
    } catch (error) {
      this.#o.logger.warn({ err: error, fileId }, 'files.info failed');
    }
    return { kind: 'unavailable', name: 'the file', reason: 'deleted' };
  }

  async download(attachment: AttachmentRef, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
    const unavailable = unavailableReason(attachment);
    if (unavailable !== undefined) {
      throw new AttachmentUnavailableError(unavailable, `${attachment.name} cannot be had (${unavailable})`);
    }
    const fileId = fileToLookUp(attachment);
    let url = attachment.id;
    if (fileId !== undefined) {
      const found = await this.lookUpFile(fileId);
      if (found.kind !== 'download') {
        const reason = found.kind === 'unavailable' ? found.reason : 'deleted';
        throw new AttachmentUnavailableError(reason, `files.info gives no download for ${fileId}`);
      }
      url = found.attachment.id;
    }
    const botToken = await this.#o.botToken();
    return downloadSlackFile(url, { botToken, apiUrl: this.#o.apiUrl, signal: options.signal });
  }

  #ts(method: string, response: unknown): string {
    const ts = parsePostedTs(response);
    if (ts.ok) return ts.value;
    this.#o.logger.error({ method, problem: ts.problem }, 'Slack answered without a message ts');
    throw new SlackResponseError(`${method} answered without a message ts`);
  }
}

/** files.info shares, looked up a few times with growing gaps, about 3 s in all. */
const SHARE_LOOKUPS = 3;
const SHARE_LOOKUP_GAP_MS = 1_000;

const share = z.array(z.looseObject({ ts: z.string().min(1) }));
const sharesResponse = z.looseObject({
  file: z.looseObject({
    shares: z
      .looseObject({
        public: z.record(z.string(), share).optional(),
        private: z.record(z.string(), share).optional(),
      })
      .optional(),
  }),
});

/** The ts of the (newest) message in `channel` that shares the file, from a files.info answer. */
function sharedTs(response: unknown, channel: string): string | undefined {
  const parsed = sharesResponse.safeParse(response);
  if (!parsed.success) return undefined;
  const shares = parsed.data.file.shares;
  const found = shares?.public?.[channel] ?? shares?.private?.[channel];
  return found?.at(-1)?.ts;
}
