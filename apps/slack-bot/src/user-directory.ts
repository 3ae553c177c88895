import type { Logger } from '@genbot/core/log';
import { parseUserName } from './parse-thread.js';

type LookUp = (userId: string) => Promise<unknown>;

/** Names kept at most: a large workspace's active people, a few hundred KiB. */
export const DEFAULT_NAME_CAPACITY = 5_000;

/**
 * Display names by user ID (users.info, needs users:read), the most recently
 * used kept up to a capacity: names only prefix conversation turns, so a
 * stale one is harmless, and a forgotten one costs one lookup. A failed
 * lookup falls back to the ID and is tried again later.
 */
export class UserDirectory {
  readonly #lookUp: LookUp;
  readonly #logger: Logger;
  readonly #capacity: number;
  /** Insertion order is use order: the first entry is the least recently used. */
  readonly #names = new Map<string, Promise<string>>();

  constructor(lookUp: LookUp, logger: Logger, capacity = DEFAULT_NAME_CAPACITY) {
    this.#lookUp = lookUp;
    this.#logger = logger;
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#names.size;
  }

  name(userId: string): Promise<string> {
    const cached = this.#names.get(userId);
    if (cached !== undefined) {
      this.#names.delete(userId);
      this.#names.set(userId, cached);
      return cached;
    }
    const pending = this.#lookUp(userId).then(
      (response) => {
        const name = parseUserName(response);
        if (name === undefined) this.#logger.warn({ userId }, 'users.info answered without a name; using the user ID');
        return name ?? userId;
      },
      (error: unknown) => {
        if (this.#names.get(userId) === pending) this.#names.delete(userId);
        this.#logger.warn({ err: error, userId }, 'users.info failed; using the user ID');
        return userId;
      },
    );
    this.#names.set(userId, pending);
    const oldest = this.#names.keys().next();
    if (this.#names.size > this.#capacity && oldest.done !== true) this.#names.delete(oldest.value);
    return pending;
  }

  async names(userIds: Iterable<string>): Promise<Map<string, string>> {
    const unique = [...new Set(userIds)];
    const names = await Promise.all(unique.map((id) => this.name(id)));
    return new Map(unique.map((id, index) => [id, names[index] ?? id]));
  }
}
