import type { Message } from 'discord.js';

/** Enough for every result pressed in a while; the oldest is forgotten first. */
const MAX_SEEN = 2_000;

/**
 * Attachment URLs as an interaction showed them, where the bot cannot read
 * the channel (a user install). The pressed result's own images travel with
 * its job (`shownBy`); these are for an image on another message, which only
 * an earlier press showed (Undo, or a Re-roll of an edit, reads the version's
 * parent): a job of this process takes the URL from here instead of fetching
 * the message it may not read.
 */
export class SeenAttachments {
  readonly #urls = new Map<string, string>();

  remember(message: Pick<Message, 'id' | 'attachments'>): void {
    for (const attachment of message.attachments.values()) {
      const key = keyOf(message.id, attachment.id);
      this.#urls.delete(key);
      this.#urls.set(key, attachment.url);
      if (this.#urls.size > MAX_SEEN) {
        const oldest = this.#urls.keys().next().value;
        if (oldest !== undefined) this.#urls.delete(oldest);
      }
    }
  }

  url(messageId: string, attachmentId: string): string | undefined {
    return this.#urls.get(keyOf(messageId, attachmentId));
  }
}

function keyOf(messageId: string, attachmentId: string): string {
  return `${messageId}/${attachmentId}`;
}
