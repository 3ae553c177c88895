import { systemClock, type Clock } from './clock.js';
import { copy } from './copy.js';
import { closeOpenFence } from './fences.js';
import type { ChatLogger } from './ports.js';
import { DEFAULT_RETRY_POLICY, RetryBudget, type RetryPolicy } from './retry.js';
import { cutPiece } from './split.js';
import type { ChatSurface, ChatTarget, MessageRef, ReplyWriter } from './surface.js';

export interface EditReplyWriterOptions {
  clock?: Clock;
  logger?: ChatLogger;
  retry?: RetryPolicy;
  /** How often `surface.showProgress` is renewed while no text has come (Discord's typing lasts 10 s). */
  progressRefreshMs?: number;
}

interface ShownMessage {
  ref: MessageRef;
  /** Formatted text the platform has now. */
  shown: string;
  writtenAt: number;
}

/** Next thing the pump does: nothing until woken, wait so many ms, or one surface call. */
type Step = 'idle' | number | (() => Promise<void>);

/**
 * The default streaming strategy: edit messages in place.
 *
 * - Progress: when the surface can show progress (typing, assistant status),
 *   that marker is kept up until the first text; otherwise a "Thinking…"
 *   placeholder is posted at once and the first text replaces it. Either way
 *   something is visible while the model thinks, and the reply appears as
 *   soon as the first text arrives.
 * - Deltas are coalesced: one message is edited at most once per
 *   `limits.minEditIntervalMs`, always with the latest text, and the last
 *   edit carries the complete text.
 * - Past `limits.maxMessageChars` (measured after formatting), the message is
 *   finished at a clean boundary (see `cutPiece`) and the text continues in a
 *   new message in the same thread.
 * - A `RateLimitedError` delays the next call by its `retryAfterMs`; other
 *   failures are retried with back-off a few times. The retry always sends
 *   the latest text, so nothing is lost.
 */
export function createEditReplyWriter(
  surface: ChatSurface,
  target: ChatTarget,
  options: EditReplyWriterOptions = {},
): ReplyWriter {
  return new EditReplyWriter(surface, target, options);
}

class EditReplyWriter implements ReplyWriter {
  readonly #surface: ChatSurface;
  readonly #target: ChatTarget;
  readonly #clock: Clock;
  readonly #logger: ChatLogger | undefined;
  readonly #budget: RetryBudget;
  readonly #progress = new AbortController();
  #progressCall: Promise<void> = Promise.resolve();

  /** Everything appended, standard Markdown. */
  #raw = '';
  /** Where in `#raw` the current message starts. */
  #base = 0;
  /** Fence line the current message starts with, reopening a block the previous one closed. */
  #reopen = '';
  #current: ShownMessage | undefined;
  #placeholderWanted: boolean;
  #notBefore = 0;
  #closed = false;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;
  readonly #pump: Promise<void>;

  constructor(surface: ChatSurface, target: ChatTarget, options: EditReplyWriterOptions) {
    this.#surface = surface;
    this.#target = target;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger;
    this.#budget = new RetryBudget(options.retry ?? DEFAULT_RETRY_POLICY);
    this.#placeholderWanted = surface.showProgress === undefined;
    if (surface.showProgress !== undefined) {
      void this.#keepProgress(surface.showProgress.bind(surface), options.progressRefreshMs ?? 8_000);
    }
    this.#pump = this.#run().catch((error: unknown) => {
      this.#failure = { error };
      this.#progress.abort();
    });
  }

  append(delta: string): void {
    if (this.#closed || delta === '') return;
    this.#raw += delta;
    this.#poke();
  }

  async finish(): Promise<void> {
    this.#closed = true;
    this.#progress.abort();
    this.#poke();
    await this.#pump;
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  fail(userMessage: string): Promise<void> {
    if (!this.#closed) {
      // What was delivered stays; the error line follows it, outside any open code block.
      this.#raw = this.#raw.trim() === '' ? userMessage : `${closeOpenFence(this.#raw)}\n\n${userMessage}`;
    }
    return this.finish();
  }

  #poke(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async #keepProgress(show: (target: ChatTarget) => Promise<void>, refreshMs: number): Promise<void> {
    const { signal } = this.#progress;
    while (!signal.aborted) {
      this.#progressCall = show(this.#target).catch((error: unknown) => {
        this.#logger?.debug({ err: error }, 'progress marker failed');
      });
      await this.#progressCall;
      await this.#clock.sleep(refreshMs, signal);
    }
  }

  async #run(): Promise<void> {
    for (;;) {
      const step = this.#nextStep();
      if (step === 'idle') {
        if (this.#closed) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      } else if (typeof step === 'number') {
        await this.#clock.sleep(step);
      } else {
        try {
          await step();
          this.#budget.succeeded();
        } catch (error) {
          const delay = this.#budget.delayAfter(error);
          if (delay === undefined) throw error;
          this.#logger?.warn({ err: error, retryInMs: delay }, 'chat surface call failed; retrying with the latest text');
          this.#notBefore = this.#clock.now() + delay;
        }
      }
    }
  }

  #nextStep(): Step {
    const now = this.#clock.now();
    if (now < this.#notBefore) return this.#notBefore - now;
    if (this.#placeholderWanted) {
      if (this.#raw === '') return this.#write(this.#surface.formatMarkdown(copy.thinking), now);
      // Text came before the placeholder went out: the reply itself is the first message.
      this.#placeholderWanted = false;
    }
    const body = this.#reopen + this.#raw.slice(this.#base);
    if (body.trim() === '') return 'idle';
    const { maxMessageChars } = this.#surface.limits;
    const formatted = this.#surface.formatMarkdown(body);
    if (formatted.length <= maxMessageChars) {
      return this.#current?.shown === formatted ? 'idle' : this.#write(formatted, now);
    }
    const fits = (markdown: string): boolean => this.#surface.formatMarkdown(markdown).length <= maxMessageChars;
    const piece = cutPiece(body, fits, this.#reopen.length);
    return this.#write(this.#surface.formatMarkdown(piece.text), now, () => {
      this.#base += piece.consumed - this.#reopen.length;
      this.#reopen = piece.reopen;
      this.#current = undefined;
    });
  }

  /** Brings the current message to `text` (posting it if there is none), then runs `sealed`. */
  #write(text: string, now: number, sealed?: () => void): Step {
    const current = this.#current;
    if (current === undefined) {
      const placeholder = this.#placeholderWanted;
      return async () => {
        await this.#progressCall;
        const ref = await this.#surface.post(this.#target, text);
        this.#progress.abort();
        this.#placeholderWanted = false;
        // Posting the placeholder spent none of the edit budget: the first words
        // replace it at once rather than a whole edit interval later.
        const writtenAt = placeholder ? Number.NEGATIVE_INFINITY : this.#clock.now();
        this.#current = { ref, shown: text, writtenAt };
        sealed?.();
      };
    }
    if (current.shown === text) {
      return async () => {
        sealed?.();
      };
    }
    const wait = current.writtenAt + this.#surface.limits.minEditIntervalMs - now;
    if (wait > 0) return wait;
    return async () => {
      await this.#surface.edit(current.ref, text);
      current.shown = text;
      current.writtenAt = this.#clock.now();
      sealed?.();
    };
  }
}
