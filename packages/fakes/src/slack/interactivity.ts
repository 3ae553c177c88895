import { SlackApiError } from './api-error.js';

/** How long a `trigger_id` opens a modal (Slack: 3 s). */
export const TRIGGER_VALIDITY_MS = 3_000;

export interface Trigger {
  id: string;
  user: string;
  issuedAtMs: number;
  used: boolean;
}

/** A modal as the app opened (or last updated) it, and whether the user still sees it. */
export interface SlackView {
  id: string;
  user: string;
  /** The `view` object as the app sent it. */
  view: Record<string, unknown>;
  hash: string;
  open: boolean;
  /** Every version the app sent, oldest first (`views.update` adds one). */
  history: Record<string, unknown>[];
}

/**
 * Slack's interactivity state: the triggers a press or a command hands out
 * (each opens one modal, within 3 s) and the modals open. Pure state; the
 * driver and the `views.*` methods change it.
 */
export class Interactivity {
  readonly triggers = new Map<string, Trigger>();
  readonly views = new Map<string, SlackView>();
  /** Set by `SlackFake.expireTriggers`: every trigger counts as expired, as when the app takes over 3 s. */
  expireAll = false;

  issue(id: string, user: string): Trigger {
    const trigger = { id, user, issuedAtMs: Date.now(), used: false };
    this.triggers.set(id, trigger);
    return trigger;
  }

  /** Spends a trigger to open a modal, or throws Slack's error for it. */
  spend(id: string): Trigger {
    const trigger = this.triggers.get(id);
    if (trigger === undefined) throw new SlackApiError('invalid_trigger_id');
    if (this.expireAll || Date.now() - trigger.issuedAtMs > TRIGGER_VALIDITY_MS) {
      throw new SlackApiError('expired_trigger_id');
    }
    if (trigger.used) throw new SlackApiError('exchanged_trigger_id');
    trigger.used = true;
    return trigger;
  }
}
