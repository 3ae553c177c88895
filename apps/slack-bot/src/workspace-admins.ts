import type { Logger } from '@genbot/core/log';
import type { SettingsRights } from '@genbot/core/settings';
import { z } from 'zod';

/** users.info for one person, with the token of their workspace. */
export type LookUpUser = (userId: string) => Promise<unknown>;

const userInfo = z.looseObject({
  user: z.looseObject({ is_admin: z.boolean().optional(), is_owner: z.boolean().optional() }),
});

/** How long a person's role is trusted: a demoted admin keeps the right to change settings for at most this long. */
export const ADMIN_FRESH_FOR_MS = 60_000;
/** Past this many people kept, the cache starts again (each entry is good for a minute anyway). */
const MAX_KEPT = 10_000;

const NONE: SettingsRights = { channel: false, workspace: false };
const ALL: SettingsRights = { channel: true, workspace: true };

interface Kept {
  rights: SettingsRights;
  readAt: number;
}

/**
 * What Slack itself lets a person change: its workspace admins and owners
 * (`users.info`, needs users:read) may change both the workspace's and any
 * channel's settings. Asked on every `/genbot` call and form, and kept for a
 * minute, so a burst of them costs one lookup. A failed lookup grants
 * nothing (ADMIN_USER_IDS still apply) and is not kept.
 */
export class WorkspaceAdmins {
  readonly #logger: Logger;
  readonly #freshForMs: number;
  readonly #now: () => number;
  readonly #kept = new Map<string, Kept>();

  constructor(options: { logger: Logger; freshForMs?: number; now?: () => number }) {
    this.#logger = options.logger;
    this.#freshForMs = options.freshForMs ?? ADMIN_FRESH_FOR_MS;
    this.#now = options.now ?? Date.now;
  }

  async rights(lookUp: LookUpUser, workspaceId: string, userId: string): Promise<SettingsRights> {
    const key = `${workspaceId}:${userId}`;
    const now = this.#now();
    const kept = this.#kept.get(key);
    if (kept !== undefined && now - kept.readAt < this.#freshForMs) return kept.rights;
    let answer: unknown;
    try {
      answer = await lookUp(userId);
    } catch (error) {
      this.#logger.warn({ err: error, userId }, 'users.info failed; treating the person as no workspace admin');
      return NONE;
    }
    const parsed = userInfo.safeParse(answer);
    if (!parsed.success) {
      this.#logger.warn({ userId }, 'users.info answered without the user; treating the person as no workspace admin');
      return NONE;
    }
    const { is_admin: admin, is_owner: owner } = parsed.data.user;
    const rights = admin === true || owner === true ? ALL : NONE;
    if (this.#kept.size >= MAX_KEPT) this.#kept.clear();
    this.#kept.set(key, { rights, readAt: now });
    return rights;
  }
}
