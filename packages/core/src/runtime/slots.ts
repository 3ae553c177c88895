/**
 * At most `count` pieces of work at once; the others wait in arrival order.
 * Work that is mostly round trips (a store, a queue, a platform) resumes when
 * its answers come, and a burst of it resumes together: many submissions in
 * flight at once means many continuations in one turn of the loop. A few
 * slots keep that turn short and cost a burst little, since each piece waits
 * on I/O, not on the others.
 */
export class Slots {
  readonly #waiting: Array<() => void> = [];
  #free: number;

  constructor(count: number) {
    if (!Number.isInteger(count) || count < 1)
      throw new RangeError(`Slots needs a whole count of at least 1, not ${String(count)}`);
    this.#free = count;
  }

  /** Pieces of work waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `work` in a slot, once one is free; the slot is given back however it ends. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await work();
    } finally {
      this.#release();
    }
  }

  #acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#free += 1;
    else next();
  }
}
