import type { ThreadMessage } from '../surface/surface.js';
import type { Platform } from './where.js';

/**
 * A thread's message as the platform's events delivered it, so a reply can
 * be built without asking the API (Slack allows apps outside the Marketplace
 * one `conversations.replies` a minute).
 */
export interface CachedThreadMessage extends ThreadMessage {
  platform: Platform;
  workspaceId?: string | undefined;
  channelId: string;
  /** The thread key; a message that starts a thread carries its own id. */
  threadId: string;
  postedAt: Date;
  /** The run of the bot that saw it arrive as an event; undefined when it came from a history read. */
  liveRun?: string | undefined;
}

/**
 * A thread the cache held whole, from its first message on: in which run of
 * the bot, and through which message. Within that run every later message
 * arrived as an event; after it (a restart, an outage) some may be missing.
 */
export interface ThreadCoverage {
  run: string;
  /** The newest message known when the thread was found whole. */
  through: string;
}

export interface ThreadCacheStore {
  /**
   * Adds a message, or replaces the one with the same id (an edit). With
   * `keepExisting`, a message already stored stays as it is: a history read
   * is older news than an event.
   */
  put(message: CachedThreadMessage, options?: { keepExisting?: boolean }): Promise<void>;

  delete(platform: Platform, channelId: string, messageId: string): Promise<void>;

  /** The thread's messages oldest first; with `limit`, only the newest `limit` of them. */
  thread(
    platform: Platform,
    channelId: string,
    threadId: string,
    options?: { limit?: number },
  ): Promise<CachedThreadMessage[]>;

  /** Records that the thread is held whole (kept with its first message); false when that message is not stored. */
  markWhole(platform: Platform, channelId: string, threadId: string, coverage: ThreadCoverage): Promise<boolean>;

  /** When the thread was last held whole; undefined when never (or its first message is gone). */
  coverage(platform: Platform, channelId: string, threadId: string): Promise<ThreadCoverage | undefined>;
}
