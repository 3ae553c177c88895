/**
 * Work the bots have accepted and not finished (replies, uploads). Shutdown
 * stops new work, lets this finish within a bound, then aborts the rest, so a
 * deploy never cuts a reply in half unless it has to.
 */
export class InFlightWork {
  readonly #pending = new Set<Promise<void>>();
  /**
   * One controller per task rather than one shared signal: hundreds of queued
   * jobs listening on a single process-long signal is what Node warns about
   * as a possible leak, and a finished task should leave nothing behind.
   */
  readonly #controllers = new Set<AbortController>();
  #accepting = true;

  get size(): number {
    return this.#pending.size;
  }

  get accepting(): boolean {
    return this.#accepting;
  }

  /**
   * Starts `task` unless shutdown has begun (then returns false and the caller
   * tells the user). The task's signal aborts when draining runs out of time.
   * Errors are the task's own business: use cases report them to the user.
   */
  run(task: (signal: AbortSignal) => Promise<unknown>, onError?: (error: unknown) => void): boolean {
    if (!this.#accepting) return false;
    const controller = new AbortController();
    this.#controllers.add(controller);
    const promise: Promise<void> = task(controller.signal).then(
      () => undefined,
      (error: unknown) => onError?.(error),
    );
    this.#pending.add(promise);
    void promise.finally(() => {
      this.#pending.delete(promise);
      this.#controllers.delete(controller);
    });
    return true;
  }

  /** Stops accepting work and waits for what is running; aborts it after `timeoutMs`. True when all finished in time. */
  async drain(timeoutMs: number): Promise<boolean> {
    this.#accepting = false;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const finished = (async (): Promise<true> => {
      while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
      return true;
    })();
    const inTime = await Promise.race([finished, timedOut]);
    clearTimeout(timer);
    if (!inTime) {
      const reason = new Error('shutting down');
      for (const controller of this.#controllers) controller.abort(reason);
      await finished;
    }
    return inTime;
  }
}
