import type {
  AttachmentRef,
  ChatSurface,
  ChatTarget,
  DownloadedFile,
  MessageRef,
  SurfaceLimits,
  ThreadMessage,
  UploadFile,
} from '@genbot/core';
import type { ChatInputCommandInteraction } from 'discord.js';
import { discordCall } from './discord-errors.js';
import { downloadAttachment } from './download.js';
import { discordLimits } from './limits.js';
import { formatMarkdown } from './markdown.js';
import { toUploads } from './uploads.js';

/**
 * ChatSurface for one deferred slash command: the first post fills in the
 * deferred response ("is thinking…"), later posts and uploads are follow-ups,
 * and edits go through the interaction webhook, so nothing needs channel
 * permissions and the 15-minute token covers it all.
 */
export class InteractionSurface implements ChatSurface {
  readonly limits: SurfaceLimits;
  readonly #interaction: ChatInputCommandInteraction;
  #originalId: string | undefined;

  constructor(interaction: ChatInputCommandInteraction) {
    this.#interaction = interaction;
    this.limits = discordLimits(interaction.attachmentSizeLimit);
  }

  formatMarkdown(markdown: string): string {
    return formatMarkdown(markdown);
  }

  async post(target: ChatTarget, text: string): Promise<MessageRef> {
    if (this.#originalId === undefined) {
      const original = await discordCall(() => this.#interaction.editReply({ content: text }));
      this.#originalId = original.id;
      return { channelId: original.channelId, messageId: original.id };
    }
    const followUp = await discordCall(() => this.#interaction.followUp({ content: text }));
    return { channelId: followUp.channelId, messageId: followUp.id };
  }

  async edit(message: MessageRef, text: string): Promise<void> {
    const which = message.messageId === this.#originalId ? '@original' : message.messageId;
    await discordCall(() => this.#interaction.editReply({ message: which, content: text }));
  }

  async uploadFiles(_target: ChatTarget, files: readonly UploadFile[], comment: string): Promise<void> {
    await discordCall(() => this.#interaction.followUp({ content: comment, files: toUploads(files) }));
  }

  /** A slash command starts a conversation of its own: nothing before it belongs to it. */
  async readThread(): Promise<ThreadMessage[]> {
    return [];
  }

  download(attachment: AttachmentRef, options?: { signal?: AbortSignal }): Promise<DownloadedFile> {
    return downloadAttachment(attachment, options);
  }
}
