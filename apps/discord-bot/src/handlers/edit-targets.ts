import type { Message } from 'discord.js';
import { INTERACTION_TOKEN_MS } from '../imagine-job.js';

/** Forms open at once; a few hundred at a time is far more than one process sees. */
const MAX_OPEN_FORMS = 500;

/**
 * The messages Edit image was run on where the bot is not (a user install),
 * by the id of the interaction that opened the form: there the bot cannot
 * fetch the message when the form comes back, and Discord sent it only with
 * the command (`data.resolved.messages`). Kept in memory for a form's
 * lifetime (the opener's 15 minutes), the oldest dropped first past a bound.
 */
export class EditTargets {
  readonly #targets = new Map<string, { message: Message; until: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  remember(openedBy: string, message: Message): void {
    this.#forgetExpired();
    if (this.#targets.size >= MAX_OPEN_FORMS) {
      const oldest = this.#targets.keys().next().value;
      if (oldest !== undefined) this.#targets.delete(oldest);
    }
    this.#targets.set(openedBy, { message, until: this.#now() + INTERACTION_TOKEN_MS });
  }

  /** The message the form opened by `openedBy` is about; undefined once forgotten. */
  take(openedBy: string): Message | undefined {
    this.#forgetExpired();
    return this.#targets.get(openedBy)?.message;
  }

  #forgetExpired(): void {
    const now = this.#now();
    for (const [openedBy, target] of this.#targets) if (target.until <= now) this.#targets.delete(openedBy);
  }
}
