import type { Logger } from '@genbot/core';
import { parseUserName } from './parse-thread.js';

type LookUp = (userId: string) => Promise<unknown>;

/**
 * Display names by user ID (users.info, needs users:read), cached for the
 * bot's lifetime: names only prefix conversation turns, so a stale one is
 * harmless. A failed lookup falls back to the ID and is tried again later.
 */
export class UserDirectory {
  readonly #lookUp: LookUp;
  readonly #logger: Logger;
  readonly #names = new Map<string, Promise<string>>();

  constructor(lookUp: LookUp, logger: Logger) {
    this.#lookUp = lookUp;
    this.#logger = logger;
  }

  name(userId: string): Promise<string> {
    const cached = this.#names.get(userId);
    if (cached !== undefined) return cached;
    const pending = this.#lookUp(userId).then(
      (response) => {
        const name = parseUserName(response);
        if (name === undefined) this.#logger.warn({ userId }, 'users.info answered without a name; using the user ID');
        return name ?? userId;
      },
      (error: unknown) => {
        this.#names.delete(userId);
        this.#logger.warn({ err: error, userId }, 'users.info failed; using the user ID');
        return userId;
      },
    );
    this.#names.set(userId, pending);
    return pending;
  }

  async names(userIds: Iterable<string>): Promise<Map<string, string>> {
    const unique = [...new Set(userIds)];
    const names = await Promise.all(unique.map((id) => this.name(id)));
    return new Map(unique.map((id, index) => [id, names[index] ?? id]));
  }
}
