import { randomUUID } from 'node:crypto';
import type { ChatLogger } from '../surface/ports.js';
import {
  type CachedMessage,
  type CachedThread,
  compareMessageIds,
  type ThreadCache,
  type ThreadKey,
} from '../chat/thread-cache.js';
import {
  type CachedThreadMessage,
  type Platform,
  StoreUnavailableError,
  type ThreadCacheStore,
} from '../store/index.js';

export interface StoredThreadCacheOptions {
  store: ThreadCacheStore;
  platform: Platform;
  workspaceId?: string | undefined;
  /** When a message was posted, from its platform id (Slack: its ts), for the retention sweep. */
  postedAt(messageId: string): Date;
  logger: ChatLogger;
}

function newest(ids: readonly string[]): string | undefined {
  return ids.reduce<string | undefined>(
    (found, id) => (found === undefined || compareMessageIds(id, found) > 0 ? id : found),
    undefined,
  );
}

/**
 * The thread cache in the store (`thread_messages`), so a restart keeps it.
 * A thread counts as complete only within the run of the bot that saw it
 * whole: events that arrived while no run was listening (a restart, a
 * database outage: a write that failed starts a new run) may be missing, so
 * a later run takes the earlier whole part as known through its newest
 * message, and asks the platform only for what came after it. A database
 * that cannot be used makes a read know nothing (the platform is asked), never
 * fails a reply.
 */
/** Messages remembered as written, so the same message seen again (its event and its mention) is not written twice. */
const WRITTEN_LIMIT = 10_000;

export class StoredThreadCache implements ThreadCache {
  readonly #options: StoredThreadCacheOptions;
  #run = randomUUID();
  /** Message key -> what was written of it, in this run; oldest first. */
  readonly #written = new Map<string, string>();

  constructor(options: StoredThreadCacheOptions) {
    this.#options = options;
  }

  async observe(thread: ThreadKey, message: CachedMessage): Promise<void> {
    // A mention reaches the bot twice (its message event and its mention event): one write does.
    const key = `${thread.channelId}\u0000${message.id}`;
    const seen = `${this.#run}\u0000${thread.threadId}\u0000${JSON.stringify(message)}`;
    if (this.#written.get(key) === seen) return;
    this.#remember(key, seen);
    await this.#write(async (run) => {
      try {
        await this.#options.store.put(this.#row(thread, message, run));
        if (message.id === thread.threadId) await this.#markWhole(thread, run, message.id);
      } catch (error) {
        this.#written.delete(key);
        throw error;
      }
    });
  }

  async forget(thread: ThreadKey, messageId: string): Promise<void> {
    const { store, platform } = this.#options;
    this.#written.delete(`${thread.channelId}\u0000${messageId}`);
    await this.#write(() => store.delete(platform, thread.channelId, messageId));
  }

  #remember(key: string, seen: string): void {
    this.#written.delete(key);
    this.#written.set(key, seen);
    if (this.#written.size > WRITTEN_LIMIT) {
      const oldest = this.#written.keys().next();
      if (oldest.done !== true) this.#written.delete(oldest.value);
    }
  }

  async backfill(thread: ThreadKey, messages: readonly CachedMessage[], options: { reachesLive: boolean }) {
    await this.#write(async (run) => {
      for (const message of messages) {
        await this.#options.store.put(this.#row(thread, message, undefined), { keepExisting: true });
      }
      if (!options.reachesLive) return;
      await this.#markWhole(thread, run, newest([thread.threadId, ...messages.map((message) => message.id)]));
    });
  }

  async read(thread: ThreadKey): Promise<CachedThread | undefined> {
    const { store, platform, logger } = this.#options;
    let rows: CachedThreadMessage[];
    let coverage: Awaited<ReturnType<ThreadCacheStore['coverage']>>;
    try {
      rows = await store.thread(platform, thread.channelId, thread.threadId);
      coverage = rows.length === 0 ? undefined : await store.coverage(platform, thread.channelId, thread.threadId);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      logger.warn({ err: error }, 'the thread cache cannot be read; the thread is read from the platform');
      return undefined;
    }
    if (rows.length === 0) return undefined;
    const run = this.#run;
    rows.sort((a, b) => compareMessageIds(a.id, b.id));
    const liveFrom = rows.find((row) => row.liveRun === run)?.id;
    const complete = coverage?.run === run;
    const knownThrough =
      coverage === undefined || complete
        ? undefined
        : newest([coverage.through, ...rows.filter((row) => row.liveRun === coverage.run).map((row) => row.id)]);
    return {
      messages: rows.map(toCached),
      complete,
      liveFrom,
      ...(knownThrough === undefined ? {} : { knownThrough }),
    };
  }

  async #markWhole(thread: ThreadKey, run: string, through: string | undefined): Promise<void> {
    if (through === undefined) return;
    await this.#options.store.markWhole(this.#options.platform, thread.channelId, thread.threadId, { run, through });
  }

  /**
   * A write the database refused leaves a message out: from here on this is a
   * new run, so no thread is taken as complete across the hole.
   */
  async #write(write: (run: string) => Promise<void>): Promise<void> {
    try {
      await write(this.#run);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      this.#run = randomUUID();
      this.#options.logger.warn({ err: error }, 'the thread cache cannot be written; threads are read again as needed');
    }
  }

  #row(thread: ThreadKey, message: CachedMessage, liveRun: string | undefined): CachedThreadMessage {
    const { platform, workspaceId, postedAt } = this.#options;
    return {
      platform,
      workspaceId,
      channelId: thread.channelId,
      threadId: thread.threadId,
      id: message.id,
      author: { id: message.authorId, name: message.authorName ?? '', isBot: message.isBot, isSelf: message.isSelf },
      text: message.text,
      attachments: message.attachments,
      postedAt: postedAt(message.id),
      liveRun,
    };
  }
}

function toCached(row: CachedThreadMessage): CachedMessage {
  return {
    id: row.id,
    authorId: row.author.id,
    ...(row.author.name === '' ? {} : { authorName: row.author.name }),
    isBot: row.author.isBot,
    isSelf: row.author.isSelf,
    text: row.text,
    attachments: row.attachments,
  };
}
