import type { AttachmentRef } from '../surface/surface.js';

/** A thread: the channel and the platform's thread key (Slack `thread_ts`). */
export interface ThreadKey {
  channelId: string;
  threadId: string;
}

/**
 * A message as the platform delivered it. `text` keeps the platform's markup:
 * the surface turns it into readable text (names, links) when the thread is
 * read, so a stored message never holds a stale name.
 */
export interface CachedMessage {
  /** The platform's message ID; the thread's first message has the thread's ID (Slack: ts = thread_ts). */
  id: string;
  authorId: string;
  /** A bot's display name, when the platform sent one with the message. */
  authorName?: string | undefined;
  isBot: boolean;
  /** Posted by this bot. */
  isSelf: boolean;
  text: string;
  attachments: AttachmentRef[];
}

export interface CachedThread {
  /** Oldest first. */
  messages: CachedMessage[];
  /** Every message from the thread's first one on is here: reading the platform's history would add nothing. */
  complete: boolean;
  /** The ID of the earliest message observed live: from it on, the cache saw the thread as it happened. */
  liveFrom: string | undefined;
  /**
   * Not complete, but was in an earlier run of the bot (a restart, a database
   * outage between): every message from the thread's first one through this
   * one is here, and only what came after it, before `liveFrom`, may be missing.
   */
  knownThrough?: string | undefined;
}

/**
 * What the bot knows of its threads without asking the platform, fed by the
 * events it receives anyway (its own posts among them). Reading a thread
 * through the platform's API can be rate limited hard (Slack: one call a
 * minute for apps outside the Marketplace), so a surface asks the API only for
 * what this lacks. In memory by default (`InMemoryThreadCache`); the store
 * keeps it across restarts (`StoredThreadCache`).
 */
export interface ThreadCache {
  /** A message posted or edited, as it happened: it replaces an earlier version with the same ID. */
  observe(thread: ThreadKey, message: CachedMessage): Promise<void>;
  /** A message deleted. */
  forget(thread: ThreadKey, messageId: string): Promise<void>;
  /**
   * Messages read from the platform's history, oldest first, from the thread's
   * first message on. `reachesLive`: the read reached the messages observed
   * live (or the thread's end), so nothing is missing in between.
   */
  backfill(thread: ThreadKey, messages: readonly CachedMessage[], options: { reachesLive: boolean }): Promise<void>;
  /** The thread as known; undefined when nothing of it was seen. */
  read(thread: ThreadKey): Promise<CachedThread | undefined>;
}

export interface InMemoryThreadCacheOptions {
  /** Threads kept; the least recently used go first (default 2,000). */
  maxThreads?: number;
  /** Messages kept a thread; its first message and the newest stay (default 500). */
  maxMessagesPerThread?: number;
}

interface Entry {
  messages: Map<string, CachedMessage>;
  /** The thread's first message arrived live, or a history read reached the live ones. */
  complete: boolean;
  liveFrom: string | undefined;
}

function keyOf(thread: ThreadKey): string {
  return `${thread.channelId}\u0000${thread.threadId}`;
}

/** Slack ts and Discord snowflakes alike: numeric strings, ordered by value. */
export function compareMessageIds(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  if (Number.isFinite(x) && Number.isFinite(y) && x !== y) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A bounded ThreadCache in the process's memory: it starts empty, so a thread
 * begun before the process started is known only from when the process saw it.
 */
export class InMemoryThreadCache implements ThreadCache {
  readonly #threads = new Map<string, Entry>();
  readonly #maxThreads: number;
  readonly #maxMessages: number;

  constructor(options: InMemoryThreadCacheOptions = {}) {
    this.#maxThreads = options.maxThreads ?? 2_000;
    this.#maxMessages = options.maxMessagesPerThread ?? 500;
  }

  async observe(thread: ThreadKey, message: CachedMessage): Promise<void> {
    const entry = this.#touch(thread, true);
    if (message.id === thread.threadId) entry.complete = true;
    if (entry.liveFrom === undefined || compareMessageIds(message.id, entry.liveFrom) < 0) entry.liveFrom = message.id;
    entry.messages.set(message.id, message);
    this.#trim(thread, entry);
  }

  async forget(thread: ThreadKey, messageId: string): Promise<void> {
    this.#touch(thread, false)?.messages.delete(messageId);
  }

  async backfill(
    thread: ThreadKey,
    messages: readonly CachedMessage[],
    options: { reachesLive: boolean },
  ): Promise<void> {
    const entry = this.#touch(thread, true);
    // A live version is newer than what the history answered with.
    for (const message of messages) if (!entry.messages.has(message.id)) entry.messages.set(message.id, message);
    if (options.reachesLive) entry.complete = true;
    this.#trim(thread, entry);
  }

  async read(thread: ThreadKey): Promise<CachedThread | undefined> {
    const entry = this.#touch(thread, false);
    if (entry === undefined) return undefined;
    const messages = [...entry.messages.values()].sort((a, b) => compareMessageIds(a.id, b.id));
    return { messages, complete: entry.complete, liveFrom: entry.liveFrom };
  }

  /** The thread's entry, made the most recently used; created when `create`. */
  #touch(thread: ThreadKey, create: true): Entry;
  #touch(thread: ThreadKey, create: false): Entry | undefined;
  #touch(thread: ThreadKey, create: boolean): Entry | undefined {
    const key = keyOf(thread);
    const found = this.#threads.get(key);
    if (found === undefined && !create) return undefined;
    const entry = found ?? { messages: new Map(), complete: false, liveFrom: undefined };
    this.#threads.delete(key);
    this.#threads.set(key, entry);
    while (this.#threads.size > this.#maxThreads) {
      const oldest = this.#threads.keys().next().value;
      if (oldest === undefined) break;
      this.#threads.delete(oldest);
    }
    return entry;
  }

  /**
   * Past the cap, the oldest replies go (a conversation's token budget drops
   * those first anyway); the first message opens the conversation and stays.
   */
  #trim(thread: ThreadKey, entry: Entry): void {
    if (entry.messages.size <= this.#maxMessages) return;
    const replies = [...entry.messages.keys()].filter((id) => id !== thread.threadId).sort(compareMessageIds);
    for (const id of replies.slice(0, entry.messages.size - this.#maxMessages)) entry.messages.delete(id);
  }
}
