import { systemClock, type Clock } from '../chat/clock.js';
import type { ChatDeps } from '../chat/deps.js';
import { StatusMessage } from '../chat/status-message.js';
import type { ChatTarget } from '../chat/surface.js';

/**
 * The progress message of a use case whose model call may wait in line.
 * Posted with its first text; later texts edit it, coalesced to the latest.
 * Once it has shown a place in line it may change every few moments, so from
 * then on its edits stay the surface's `minEditIntervalMs` apart; before that
 * (no queue) it behaves like a plain status message.
 */
export class ProgressMessage {
  readonly #deps: ChatDeps;
  readonly #target: ChatTarget;
  readonly #clock: Clock;
  #posted: Promise<StatusMessage> | undefined;
  #wanted = '';
  #shown = '';
  #lastChangeAt = Number.NEGATIVE_INFINITY;
  #spaced = false;
  #pump: Promise<void> | undefined;

  constructor(deps: ChatDeps, target: ChatTarget) {
    this.#deps = deps;
    this.#target = target;
    this.#clock = deps.clock ?? systemClock;
  }

  /** Whether anything was (or is being) posted. */
  get posted(): boolean {
    return this.#posted !== undefined;
  }

  /** Shows the place in line; never waits or throws (a failed post is logged). */
  queued(markdown: string): void {
    this.#spaced = true;
    this.#show(markdown).catch((error: unknown) => this.#deps.logger.error({ err: error }, 'could not show the place in line'));
  }

  /**
   * Shows the working text as the model call starts. Waits until the message
   * exists (rejecting when it cannot be posted: nobody would see the result),
   * never for an edit, so a spaced edit does not delay the call.
   */
  async started(markdown: string): Promise<void> {
    if (this.#posted === undefined) return this.#show(markdown);
    // An edit of a posted message never rejects (#run).
    void this.#show(markdown);
    await this.#posted;
  }

  /** The last word (result, error, refusal), posted or edited; never throws. */
  async finish(markdown: string): Promise<void> {
    try {
      await this.#show(markdown);
    } catch (error) {
      this.#deps.logger.error({ err: error }, 'could not post the progress message');
    }
  }

  /** Resolves when `markdown` or a later text is on screen; rejects only when it is the first post and that fails. */
  #show(markdown: string): Promise<void> {
    this.#wanted = markdown;
    if (this.#posted === undefined) {
      this.#shown = markdown;
      const posted = StatusMessage.post(this.#deps, this.#target, markdown);
      this.#posted = posted;
      return posted.then(() => {
        this.#lastChangeAt = this.#clock.now();
      });
    }
    this.#pump ??= this.#run();
    return this.#pump;
  }

  /** Edits until the latest wanted text is shown; one at a time, never rejects. */
  async #run(): Promise<void> {
    try {
      // Never throws: whoever awaited the first post has reported its failure.
      const message = await this.#posted?.catch(() => undefined);
      if (message === undefined) return;
      while (this.#wanted !== this.#shown) {
        if (this.#spaced) {
          const wait = this.#lastChangeAt + this.#deps.surface.limits.minEditIntervalMs - this.#clock.now();
          if (wait > 0) await this.#clock.sleep(wait);
        }
        const text = this.#wanted;
        await message.update(text);
        this.#shown = text;
        this.#lastChangeAt = this.#clock.now();
      }
    } finally {
      this.#pump = undefined;
    }
  }
}
