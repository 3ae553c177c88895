/**
 * Hands out turns of the event loop, one taker a turn, in order (arrivals before work).
 *
 * A burst of deliveries (hundreds of mentions at once, a replica taking 50
 * commands together) arrives in one poll of the loop, and each handler's start
 * is mostly work that needs no I/O: parsing, checks, a store in the same
 * process (SQLite answers synchronously), a queue in memory. Run as they
 * arrive, every handler's start lands in one stretch, and timers, streaming
 * replies, acknowledgements and health checks wait for all of them (hundreds
 * of milliseconds). Waiting for a turn first puts one handler's start in each
 * turn of the loop, with everything else the loop has to do in between; a
 * delivery alone waits one turn, a fraction of a millisecond. The same holds
 * for any step of milliseconds that many may reach together, such as parsing
 * megabytes of image answers: `setImmediate` alone does not part them, since
 * immediates set in one turn all run in the next.
 */
export class LoopTurns {
  readonly #arrivals: Array<() => void> = [];
  readonly #work: Array<() => void> = [];
  #scheduled = false;

  /** Takers waiting for their turn. */
  get waiting(): number {
    return this.#arrivals.length + this.#work.length;
  }

  /**
   * Resolves on a turn of the loop of its own, after those asked for before
   * it. An `arrival` (a request to acknowledge: Slack wants its answer within
   * 3 s, and it is little work) goes before all `work` waiting: a loaded bot
   * still answers the platform at once, and does the work after.
   */
  take(kind: 'arrival' | 'work' = 'work'): Promise<void> {
    return new Promise<void>((resolve) => {
      (kind === 'arrival' ? this.#arrivals : this.#work).push(resolve);
      this.#schedule();
    });
  }

  /**
   * Runs `work(from, to)` over `[0, length)` a slice of `sliceLength` at a
   * time, `slicesPerTurn` slices in one turn: the first at once, each next
   * group on a turn taken as `work`. For megabytes of synchronous work (an
   * image decoded or hashed) that would otherwise hold the loop in one go.
   */
  async inSlices(
    length: number,
    sliceLength: number,
    slicesPerTurn: number,
    work: (from: number, to: number) => void,
  ): Promise<void> {
    for (let from = 0, slices = 0; from < length; from += sliceLength, slices += 1) {
      if (slices > 0 && slices % slicesPerTurn === 0) await this.take();
      work(from, Math.min(from + sliceLength, length));
    }
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // An immediate scheduled from an immediate runs on the loop's next turn, after its timers and I/O.
    setImmediate(this.#next);
  }

  readonly #next = (): void => {
    this.#scheduled = false;
    (this.#arrivals.shift() ?? this.#work.shift())?.();
    if (this.waiting > 0) this.#schedule();
  };
}

/**
 * The process's turns: a process has one event loop, so the bots' deliveries
 * and the service client's image parses wait in one line.
 */
export const processTurns = new LoopTurns();
