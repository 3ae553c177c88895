import { copy } from '../copy/copy.js';
import { closeOpenFence } from './fences.js';
import type { ReplySink, ReplyState, ReplyStatus, SinkCall } from './reply-sink.js';
import { cutPiece } from './split.js';
import type { Clock } from '../time/clock.js';
import type { ChatSurface, ChatTarget, MessageRef } from '../surface/surface.js';

/** How often a progress marker is renewed while no text has come (Discord's typing lasts 10 s). */
const MARKER_REFRESH_MS = 8_000;

/**
 * How long a working reply without a progress marker waits for its first
 * words before it posts a placeholder. Words that come sooner are posted as
 * the reply's message: one post, where a placeholder would need a post and
 * then an edit, and the edit waits its turn behind every other reply's text
 * in the channel (up to an edit interval, longer when the channel is busy).
 */
export const PLACEHOLDER_AFTER_MS = 1_000;

/** The activity line as a message shows it, on a line of its own in italics. */
function activityLine(activity: string): string {
  return `_${activity.replace(/\s+/g, ' ').trim()}_`;
}

interface Shown {
  ref: MessageRef;
  /** Text the platform has now. */
  text: string;
  /** Of which the reply's own text (without the activity line); empty for a placeholder. */
  body: string;
  /** The message shows the status (a place in line, "Thinking…"), none of the reply yet. */
  statusOnly: boolean;
  /** When it was posted with text; a placeholder's first words go out at once. */
  postedAt: number;
}

interface Plan {
  kind: 'post' | 'edit';
  text: string;
  /** Of which the reply's own text (`Shown.body`). */
  body: string;
  statusOnly: boolean;
  /** Run once the text is shown: the message is full, the reply goes on in a new one. */
  seal?: () => void;
  /** A placeholder waits this long for the first words (`PLACEHOLDER_AFTER_MS`). */
  notBefore?: number;
}

/**
 * Replies by editing messages in place, the strategy that works everywhere.
 *
 * - Before the first text: the surface's progress marker while the model
 *   works, when it has one; otherwise, when the first words are slow to come
 *   (`PLACEHOLDER_AFTER_MS`), and whenever the reply waits in line, a
 *   placeholder message with the status, which the first text replaces.
 *   While a tool works, the placeholder says what the bot does instead of
 *   "Thinking…", typing or not: typing cannot say it.
 * - Each call brings the current message to the reply's latest text, and
 *   while a tool works, the activity line after it when the message has room
 *   for it (never a new message for a line that goes away).
 * - Past `limits.maxMessageChars`, the message is finished at a clean
 *   boundary (`cutPiece`) and the text continues in a new message; a code
 *   block cut in two is closed and reopened.
 *
 * Work per call is bounded by the message limit, however long the reply:
 * only the current message's window of the text is ever measured or cut.
 */
export class EditSink implements ReplySink {
  readonly #surface: ChatSurface;
  readonly #target: ChatTarget;
  readonly #clock: Clock;
  readonly marker: ReplySink['marker'];
  #current: Shown | undefined;
  /** Where in the reply's text the current message starts. */
  #base = 0;
  /** Fence line the current message starts with, reopening a block the previous one closed. */
  #reopen = '';
  /** When the reply was first seen working with nothing on screen: its placeholder's wait starts then. */
  #workingSince: number | undefined;

  constructor(surface: ChatSurface, target: ChatTarget, clock: Clock) {
    this.#surface = surface;
    this.#target = target;
    this.#clock = clock;
    const showProgress = surface.showProgress?.bind(surface);
    this.marker =
      showProgress === undefined
        ? undefined
        : {
            // Typing while in line would claim work that has not begun: the placeholder says where it stands.
            show: ({ status, activity }, signal) =>
              status === 'working' ? showProgress(target, { signal, activity }) : Promise.resolve(),
            refreshMs: MARKER_REFRESH_MS,
          };
  }

  next(reply: ReplyState): SinkCall | undefined {
    const plan = this.#plan(reply);
    if (plan === undefined) return undefined;
    const posted = this.#current;
    return {
      kind: plan.kind,
      statusOnly: plan.statusOnly,
      notBefore: posted === undefined ? plan.notBefore : posted.postedAt + this.#surface.limits.minEditIntervalMs,
      run: (latest) => this.#carryOut(plan.kind, latest),
    };
  }

  async end(note: string): Promise<void> {
    const current = this.#current;
    if (current === undefined) {
      await this.#surface.post(this.#target, note);
      return;
    }
    // What was shown stays, but the activity line; the note follows it, outside any open code block.
    const text = current.statusOnly ? note : `${closeOpenFence(current.body)}\n\n${note}`;
    if (text.length <= this.#surface.limits.maxMessageChars) await this.#surface.edit(current.ref, text);
    else await this.#surface.post(this.#target, note);
  }

  async #carryOut(kind: Plan['kind'], reply: ReplyState): Promise<void> {
    const plan = this.#plan(reply);
    // Nothing left to do, or the call due now is of the other kind: the pump asks again.
    if (plan === undefined || plan.kind !== kind) return;
    const current = this.#current;
    if (current === undefined) {
      const ref = await this.#surface.post(this.#target, plan.text);
      const postedAt = plan.statusOnly ? Number.NEGATIVE_INFINITY : this.#clock.now();
      this.#current = { ref, text: plan.text, body: plan.body, statusOnly: plan.statusOnly, postedAt };
    } else {
      await this.#surface.edit(current.ref, plan.text);
      current.text = plan.text;
      current.body = plan.body;
      current.statusOnly = plan.statusOnly;
    }
    plan.seal?.();
  }

  #statusText(status: ReplyStatus, activity: string | undefined): string | undefined {
    if (status !== 'working') return copy.chatQueued(status.queued);
    if (activity !== undefined) {
      // Before any message, a marker that says what the bot does says it: a message would only repeat it.
      if (this.#current === undefined && this.#surface.progressSaysActivity === true) return undefined;
      return activityLine(activity);
    }
    const placeholder = this.#current?.statusOnly === true || this.#surface.showProgress === undefined;
    return placeholder ? copy.thinking : undefined;
  }

  /** `window` (a message's text that fits) with the activity line after it, when it still fits. */
  #withActivity(window: string, activity: string | undefined): string {
    if (activity === undefined) return window;
    const shown = `${closeOpenFence(window).trimEnd()}\n\n${activityLine(activity)}`;
    return shown.length <= this.#surface.limits.maxMessageChars ? shown : window;
  }

  #plan(reply: ReplyState): Plan | undefined {
    const max = this.#surface.limits.maxMessageChars;
    const activity = reply.final ? undefined : reply.activity;
    for (;;) {
      const current = this.#current;
      const kind = current === undefined ? 'post' : 'edit';
      // One character past the limit is enough to know the message must be cut, and where.
      const room = Math.max(1, max + 1 - this.#reopen.length);
      const taken = reply.text.slice(this.#base, this.#base + room);
      if (taken.trim() === '') {
        if (reply.text.length > this.#base + room) {
          // A run of blank text longer than a message: nothing to show in it.
          this.#base += room;
          continue;
        }
        const status = this.#statusText(reply.status, activity);
        if (status === undefined || reply.final) return undefined;
        if (current !== undefined && (!current.statusOnly || current.text === status)) return undefined;
        if (current === undefined && reply.status === 'working' && activity === undefined) {
          // A place in line or an activity is news at once; "working" only once the words are slow to come.
          this.#workingSince ??= this.#clock.now();
          return {
            kind,
            text: status,
            body: '',
            statusOnly: true,
            notBefore: this.#workingSince + PLACEHOLDER_AFTER_MS,
          };
        }
        return { kind, text: status, body: '', statusOnly: true };
      }
      const window = this.#reopen + taken;
      if (window.length <= max) {
        const shown = this.#withActivity(window, activity);
        if (current !== undefined && !current.statusOnly && current.text === shown) return undefined;
        return { kind, text: shown, body: window, statusOnly: false };
      }
      const piece = cutPiece(window, (text) => text.length <= max, this.#reopen.length);
      const seal = (): void => {
        this.#base += piece.consumed - this.#reopen.length;
        this.#reopen = piece.reopen;
        this.#current = undefined;
      };
      if (current !== undefined && !current.statusOnly && current.text === piece.text) {
        seal();
        continue;
      }
      return { kind, text: piece.text, body: piece.text, statusOnly: false, seal };
    }
  }
}
