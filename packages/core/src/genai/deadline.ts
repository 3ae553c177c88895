/**
 * A timer that aborts a signal when it runs out; `reset()` restarts it, which
 * turns it into an idle timeout for streams. `expired` tells our own timeout
 * apart from the caller's abort.
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #ms: number;
  #timer: NodeJS.Timeout | undefined;
  #expired = false;

  constructor(ms: number) {
    this.#ms = ms;
    this.reset();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expired(): boolean {
    return this.#expired;
  }

  get ms(): number {
    return this.#ms;
  }

  reset(): void {
    clearTimeout(this.#timer);
    if (this.#expired) return;
    this.#timer = setTimeout(() => {
      this.#expired = true;
      this.#controller.abort(new Error(`no answer within ${this.#ms} ms`));
    }, this.#ms);
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}
