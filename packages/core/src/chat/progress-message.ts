import { type CallPriority, callIntervalMs, paceKeyOf } from '../rendering/channel-budget.js';
import type { ChatDeps } from './deps.js';
import { pacedCall } from '../rendering/paced-call.js';
import { fitted, say } from './status-message.js';
import type { ChatTarget, MessageRef } from '../surface/surface.js';

/**
 * The progress message of a use case whose model call may wait in line.
 * Posted with its first text; later texts edit it, coalesced to the latest
 * (the channel's budget spaces the edits). Until the job starts, its words
 * (a place in line, a refusal) wait behind running jobs' in a busy channel.
 * Updating it never throws once it is posted: a refused edit is logged.
 */
export class ProgressMessage {
  readonly #deps: ChatDeps;
  readonly #target: ChatTarget;
  #posted: Promise<MessageRef> | undefined;
  #wanted = '';
  #shown = '';
  #running = false;
  #finishing = false;
  #pump: Promise<void> | undefined;

  constructor(deps: ChatDeps, target: ChatTarget) {
    this.#deps = deps;
    this.#target = target;
  }

  /** Whether anything was (or is being) posted. */
  get posted(): boolean {
    return this.#posted !== undefined;
  }

  /** Settles once the message is on screen, or its post failed; at once when nothing was asked to be shown. */
  get onScreen(): Promise<unknown> {
    return this.#posted ?? Promise.resolve();
  }

  /** Shows the place in line; never waits or throws (a failed post is logged). */
  queued(markdown: string): void {
    this.#show(markdown).catch((error: unknown) =>
      this.#deps.logger.error({ err: error }, 'could not show the place in line'),
    );
  }

  /**
   * Shows the working text as the job starts. Waits until the message exists
   * (rejecting when it cannot be posted: nobody would see the result), never
   * for an edit, so a waiting edit does not delay the call.
   */
  async started(markdown: string): Promise<void> {
    this.#running = true;
    if (this.#posted === undefined) return this.#show(markdown);
    void this.#show(markdown);
    await this.#posted;
  }

  /** The last word (result, error, refusal), posted or edited; never throws. */
  async finish(markdown: string): Promise<void> {
    this.#finishing = true;
    try {
      await this.#show(markdown);
    } catch (error) {
      this.#deps.logger.error({ err: error }, 'could not post the progress message');
    }
  }

  /**
   * The job's result stands on its own below: the message is deleted, or,
   * where it cannot be, says `pointer` instead; never throws. An edit in
   * flight ends first, so nothing lands on a deleted message.
   */
  async giveWay(pointer: string): Promise<void> {
    this.#finishing = true;
    const ref = await this.#posted?.catch(() => undefined);
    if (ref === undefined) return;
    this.#wanted = this.#shown;
    await this.#pump;
    const { surface } = this.#deps;
    const remove = surface.delete;
    if (remove !== undefined) {
      // One try in the channel's turn: when it fails, the pointer line does as well as a retry would.
      const intervalMs = callIntervalMs(surface.limits, 'edit');
      const done = await this.#deps.channels.turn(ref.channelId, 'edit', intervalMs, { priority: this.#priority });
      try {
        await remove.call(surface, ref);
        return;
      } catch (error) {
        this.#deps.logger.warn({ err: error }, 'could not delete the progress message: it points at the result');
      } finally {
        done();
      }
    }
    await this.finish(pointer);
  }

  get #priority(): CallPriority {
    if (this.#running) return 'reply';
    // Before the job runs: the last word of a job that will not run, or its place in line.
    return this.#finishing ? 'refusal' : 'status';
  }

  /** Resolves when `markdown` or a later text is on screen; rejects only when it is the first post and that fails. */
  #show(markdown: string): Promise<void> {
    this.#wanted = markdown;
    if (this.#posted === undefined) {
      this.#shown = markdown;
      const priority = this.#priority;
      const posted = say(this.#deps, this.#target, markdown, priority);
      this.#posted = posted;
      return posted.then(() => undefined);
    }
    this.#pump ??= this.#run();
    return this.#pump;
  }

  /** Edits until the latest wanted text is shown; one at a time, never rejects. */
  async #run(): Promise<void> {
    try {
      // Never throws: whoever awaited the first post has reported its failure.
      const ref = await this.#posted?.catch(() => undefined);
      if (ref === undefined) return;
      const { surface } = this.#deps;
      while (this.#wanted !== this.#shown) {
        let text = this.#wanted;
        try {
          await pacedCall(
            this.#deps,
            paceKeyOf(surface, 'edit', ref),
            'edit',
            // Built when the turn comes, so a text that changed meanwhile goes out in one edit.
            () => {
              text = this.#wanted;
              return surface.edit(ref, fitted(this.#deps, text));
            },
            { priority: this.#priority },
          );
        } catch (error) {
          this.#deps.logger.error({ err: error }, 'could not update the progress message');
        }
        this.#shown = text;
      }
    } finally {
      this.#pump = undefined;
    }
  }
}
