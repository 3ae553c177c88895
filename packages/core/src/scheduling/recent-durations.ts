/** The last few job durations of a lane, in a fixed-size ring, so estimates follow the service's current pace. */
export class RecentDurations {
  readonly #samples: number[] = [];
  readonly #capacity: number;
  #next = 0;

  constructor(capacity = 20) {
    this.#capacity = capacity;
  }

  add(ms: number): void {
    if (this.#samples.length < this.#capacity) this.#samples.push(ms);
    else this.#samples[this.#next] = ms;
    this.#next = (this.#next + 1) % this.#capacity;
  }

  /** Mean of the samples, or undefined before the first. */
  mean(): number | undefined {
    if (this.#samples.length === 0) return undefined;
    return this.#samples.reduce((sum, ms) => sum + ms, 0) / this.#samples.length;
  }
}
