/** A clock the tests move by hand. */
export class TestClock {
  #now: Date;

  constructor(start: string) {
    this.#now = new Date(start);
  }

  readonly now = (): Date => new Date(this.#now);

  set(at: string): void {
    this.#now = new Date(at);
  }

  advance(ms: number): void {
    this.#now = new Date(this.#now.getTime() + ms);
  }
}
