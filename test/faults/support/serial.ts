/**
 * Runs tasks one after another, in the order they were queued: rows of one
 * platform share its bot, fake and switches, so they must not overlap, while
 * rows of different platforms may.
 */
export class Serial {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    // The next task waits for this one to end, whether it passed or failed.
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
