/** A part that stops within a drain: bots finish their replies, connections close. */
export interface Stoppable {
  name: string;
  stop(drainMs: number): Promise<void>;
}

/** Where a part that did not stop cleanly is told. */
export interface StopLog {
  warn(fields: { part: string | undefined; err: unknown }, message: string): void;
}

/**
 * Stops `stages` in order, the parts of one stage together; a part that fails is logged and the
 * rest still stop. True when every part stopped cleanly.
 */
export async function stopAll(
  stages: readonly (readonly Stoppable[])[],
  drainMs: number,
  log?: StopLog,
): Promise<boolean> {
  let clean = true;
  for (const stage of stages) {
    const results = await Promise.allSettled(stage.map((part) => part.stop(drainMs)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') {
        clean = false;
        log?.warn({ part: stage[index]?.name, err: result.reason }, 'did not stop cleanly');
      }
    });
  }
  return clean;
}

/**
 * Things opened in turn, closed in reverse: the one way a start-up that fails part-way gives back
 * what it opened, and the last stage of a shutdown.
 */
export class Opened {
  readonly #parts: Stoppable[] = [];

  /** Keeps `thing` to close with `close`; returns it, for `const x = opened.add(await open(), …)`. */
  add<T>(thing: T, close: (thing: T, drainMs: number) => Promise<unknown>, name = 'part'): T {
    this.#parts.push({ name, stop: async (drainMs) => void (await close(thing, drainMs)) });
    return thing;
  }

  /** What was opened, last first, one part a stage: the end of a shutdown. Each is handed out once. */
  stages(): Stoppable[][] {
    return this.#parts
      .splice(0)
      .reverse()
      .map((part) => [part]);
  }

  /** Closes what was opened, last first, each whether or not the one before closed cleanly. */
  async closeAll(drainMs = 0, log?: StopLog): Promise<boolean> {
    return stopAll(this.stages(), drainMs, log);
  }

  /** Runs `open` with this; when it throws, what it opened is closed before the error goes on. */
  async rollbackOnError<T>(open: (opened: Opened) => Promise<T>): Promise<T> {
    try {
      return await open(this);
    } catch (error) {
      await this.closeAll();
      throw error;
    }
  }
}
