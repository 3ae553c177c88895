import type { SlackWorkspace } from './workspace.js';

export interface WaitOptions {
  /** Give up after this long (default 5 s). */
  timeoutMs?: number;
  /**
   * Resolve only once the probe has held with no workspace change for this long: "the bot's reply
   * stopped changing". 0 (default) resolves as soon as the probe holds.
   */
  quietMs?: number;
}

/** A probe answers a value when the state it waits for is there, and `undefined`, `null` or `false` otherwise. */
export type Probe<T> = (workspace: SlackWorkspace) => T | undefined | null | false;

/** Probes may look beyond the workspace (deliveries, the test's own records): re-check at this pace too. */
const POLL_MS = 20;

/**
 * Runs `probe` on every workspace change (and every few ms) until it answers a value, and, with
 * `quietMs`, until it has kept answering one with no workspace change for that long.
 */
export function waitFor<T>(workspace: SlackWorkspace, probe: Probe<T>, options: WaitOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const quietMs = options.quietMs ?? 0;
  return new Promise<T>((resolve, reject) => {
    let quietTimer: NodeJS.Timeout | undefined;
    const finish = (settle: () => void) => {
      clearTimeout(deadline);
      clearTimeout(quietTimer);
      clearInterval(poll);
      unsubscribe();
      settle();
    };
    const evaluate = (): T | undefined => {
      try {
        const value = probe(workspace);
        return value === undefined || value === null || value === false ? undefined : value;
      } catch (error) {
        finish(() => reject(error));
        return undefined;
      }
    };
    const attempt = () => {
      const value = evaluate();
      if (value === undefined) return;
      if (quietMs === 0) {
        finish(() => resolve(value));
        return;
      }
      quietTimer ??= setTimeout(() => {
        quietTimer = undefined;
        const settled = evaluate();
        if (settled !== undefined) finish(() => resolve(settled));
      }, quietMs);
    };
    const deadline = setTimeout(
      () => finish(() => reject(new Error(`slack fake: waitFor timed out after ${timeoutMs} ms`))),
      timeoutMs,
    );
    const poll = setInterval(() => {
      if (quietTimer === undefined) attempt();
    }, POLL_MS);
    const unsubscribe = workspace.onChange(() => {
      // A change restarts the quiet period.
      clearTimeout(quietTimer);
      quietTimer = undefined;
      attempt();
    });
    attempt();
  });
}
