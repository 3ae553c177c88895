/**
 * A cap on the bytes that jobs hold in memory at once (an edit's source image,
 * with the copies its request makes), handed out first come first served. A
 * holder larger than the whole budget goes alone, once nothing else is held,
 * so no job waits forever.
 */
export class ByteBudget {
  readonly #capacity: number;
  #held = 0;
  readonly #waiting: Array<{ bytes: number; grant: () => void }> = [];

  constructor(capacity: number) {
    if (!(capacity > 0)) throw new RangeError(`A byte budget needs a positive capacity, not ${String(capacity)}`);
    this.#capacity = capacity;
  }

  /** Bytes held now. */
  get held(): number {
    return this.#held;
  }

  /**
   * Resolves once `bytes` may be held, with the function that gives them
   * back; rejects with the signal's reason when it aborts first.
   */
  hold(bytes: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter = {
        bytes,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.#held += bytes;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#held -= bytes;
            this.#grant();
          });
        },
      };
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(signal?.reason);
        // A large waiter gone may let smaller ones behind it through.
        this.#grant();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#grant();
    });
  }

  /** Lets waiters through in order while they fit. */
  #grant(): void {
    for (;;) {
      const next = this.#waiting[0];
      if (next === undefined) return;
      const fits = this.#held === 0 || this.#held + next.bytes <= this.#capacity;
      if (!fits) return;
      this.#waiting.shift();
      next.grant();
    }
  }
}
