import type { CachedMessage, ThreadCache, ThreadKey } from '@genbot/core/chat';
import { RateLimitedError } from '@genbot/core/errors';
import type { Logger } from '@genbot/core/log';
import { toCachedMessage } from './cached-message.js';
import { parseRepliesPage, type BotIdentity } from './parse-thread.js';

/**
 * Small pages: since May 2025 Slack gives apps outside the Marketplace at most
 * 15 messages a page of conversations.replies (and one call a minute).
 */
export const REPLIES_PAGE_SIZE = 15;
/** Pages one read may fetch; a thread longer than this is answered from its start and its newest part. */
const MAX_PAGES_PER_READ = 4;
/** Threads whose history read is under way, remembered to go on from where it stopped. */
const MAX_RESUMABLE_THREADS = 500;

export type RepliesCall = (args: {
  channel: string;
  ts: string;
  limit: number;
  cursor?: string;
  oldest?: string;
  latest?: string;
  inclusive?: boolean;
}) => Promise<unknown>;

interface Resume {
  cursor: string;
  /** What the cache knows from the thread's start through (an earlier run's whole thread): read only what follows. */
  oldest: string | undefined;
  /** What the cache saw live from on: read only what precedes. */
  latest: string | undefined;
}

function keyOf(thread: ThreadKey): string {
  return `${thread.channelId}:${thread.threadId}`;
}

/**
 * A thread's messages for a reply: from the cache the bot's events keep, and
 * from conversations.replies only for what it lacks (the part before the bot
 * first saw the thread). The API's limits never fail or delay a reply: a 429
 * pauses every read until its Retry-After, and the reply goes on with what is
 * known; one log line says the context was trimmed.
 */
export class SlackThreadReader {
  readonly #replies: RepliesCall;
  readonly #cache: ThreadCache;
  readonly #identity: () => Promise<BotIdentity>;
  readonly #logger: Logger;
  readonly #now: () => number;
  /** No call before this (ms): Slack's Retry-After, which holds for the whole method. */
  #pausedUntil = 0;
  readonly #resume = new Map<string, Resume>();

  constructor(options: {
    replies: RepliesCall;
    cache: ThreadCache;
    identity: () => Promise<BotIdentity>;
    logger: Logger;
    now?: () => number;
  }) {
    this.#replies = options.replies;
    this.#cache = options.cache;
    this.#identity = options.identity;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
  }

  /** The thread oldest first, as the cache holds it once it has asked the API for what was missing. */
  async read(thread: ThreadKey, signal?: AbortSignal): Promise<CachedMessage[]> {
    const known = await this.#cache.read(thread);
    if (known?.complete === true) return known.messages;
    const calls = await this.#fill(thread, known, signal);
    const now = await this.#cache.read(thread);
    const messages = now?.messages ?? [];
    if (now?.complete !== true) {
      this.#logger.info(
        { channel: thread.channelId, threadTs: thread.threadId, known: messages.length, calls },
        'thread context trimmed: the start of the thread is not known, answering with the messages at hand',
      );
    }
    return messages;
  }

  /** Reads pages of the history the cache lacks, until it has them all, a page cap, or a refusal; answers the calls made. */
  async #fill(
    thread: ThreadKey,
    known: { liveFrom: string | undefined; knownThrough?: string | undefined } | undefined,
    signal: AbortSignal | undefined,
  ): Promise<number> {
    const key = keyOf(thread);
    // Up to the first message seen live (everything after it arrived as events), from the
    // last one an earlier run knew in an unbroken line from the start.
    const resume = this.#resume.get(key) ?? { cursor: '', oldest: known?.knownThrough, latest: known?.liveFrom };
    let calls = 0;
    while (calls < MAX_PAGES_PER_READ && this.#now() >= this.#pausedUntil) {
      signal?.throwIfAborted();
      calls += 1;
      let response: unknown;
      try {
        response = await this.#replies({
          channel: thread.channelId,
          ts: thread.threadId,
          limit: REPLIES_PAGE_SIZE,
          ...(resume.cursor === '' ? {} : { cursor: resume.cursor }),
          ...(resume.oldest === undefined ? {} : { oldest: resume.oldest }),
          ...(resume.latest === undefined ? {} : { latest: resume.latest }),
          ...(resume.oldest === undefined && resume.latest === undefined ? {} : { inclusive: true }),
        });
      } catch (error) {
        if (error instanceof RateLimitedError) {
          this.#pausedUntil = this.#now() + error.retryAfterMs;
          this.#logger.info(
            { retryAfterMs: error.retryAfterMs },
            'conversations.replies rate limited; threads are read from the cache until it lifts',
          );
        } else {
          this.#logger.warn({ err: error }, 'conversations.replies failed; answering with the messages at hand');
        }
        break;
      }
      const page = parseRepliesPage(response);
      if (!page.ok) {
        this.#logger.error({ problem: page.problem }, 'conversations.replies answered in an unexpected shape');
        break;
      }
      const identity = await this.#identity();
      const messages = page.value.messages.map((message) => toCachedMessage(message, identity));
      const next = page.value.nextCursor;
      await this.#cache.backfill(thread, messages, { reachesLive: next === undefined });
      if (next === undefined) {
        this.#resume.delete(key);
        break;
      }
      this.#remember(key, { cursor: next, oldest: resume.oldest, latest: resume.latest });
      resume.cursor = next;
    }
    return calls;
  }

  #remember(key: string, resume: Resume): void {
    this.#resume.delete(key);
    this.#resume.set(key, resume);
    if (this.#resume.size > MAX_RESUMABLE_THREADS) {
      const oldest = this.#resume.keys().next().value;
      if (oldest !== undefined) this.#resume.delete(oldest);
    }
  }
}
