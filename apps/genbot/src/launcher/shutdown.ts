import type { Logger } from '@genbot/core';
import { ExitCode } from '../exit-codes.js';

/** Something to stop on shutdown; `drainMs` is how long replies in progress may still take. */
export interface Stoppable {
  name: string;
  stop(drainMs: number): Promise<void>;
}

/** Bounded wait for replies and uploads in progress when a signal arrives. */
export const DRAIN_MS = 25_000;

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * SIGINT and SIGTERM, listened to from the very start: a signal that arrives while the bots are
 * still starting must not kill the process with its default action halfway through.
 */
export class ShutdownSignals {
  readonly #stderr: NodeJS.WritableStream;
  readonly first: Promise<NodeJS.Signals>;
  #received: NodeJS.Signals | undefined;
  #resolveFirst: (signal: NodeJS.Signals) => void = () => {};

  constructor(stderr: NodeJS.WritableStream) {
    this.#stderr = stderr;
    this.first = new Promise((resolve) => {
      this.#resolveFirst = resolve;
    });
    for (const name of SIGNALS) process.on(name, this.#onSignal);
  }

  get received(): NodeJS.Signals | undefined {
    return this.#received;
  }

  readonly #onSignal = (signal: NodeJS.Signals): void => {
    if (this.#received === undefined) {
      this.#received = signal;
      this.#resolveFirst(signal);
      return;
    }
    // A second signal: the person wants out now, whatever is still finishing.
    this.#stderr.write(`genbot: ${signal} again, stopping without waiting\n`);
    this.dispose();
    process.exit(ExitCode.interrupted);
  };

  dispose(): void {
    for (const name of SIGNALS) process.off(name, this.#onSignal);
  }
}

export interface ShutdownOptions {
  signals: ShutdownSignals;
  /** Stopped one stage after the other; the parts of a stage together. */
  stages: readonly (readonly Stoppable[])[];
  logger: Logger;
  stderr: NodeJS.WritableStream;
  drainMs?: number;
}

/**
 * Waits for SIGINT or SIGTERM, then stops everything in order (new work refused, work in progress
 * finished within the drain time, connections closed) and resolves with exit status 0.
 */
export async function waitForShutdown(options: ShutdownOptions): Promise<ExitCode> {
  const { logger, stderr, signals } = options;
  const drainMs = options.drainMs ?? DRAIN_MS;
  const signal = await signals.first;
  stderr.write(`genbot: ${signal} received, finishing replies in progress (up to ${Math.round(drainMs / 1000)} s)\n`);
  logger.info({ signal }, 'shutting down');
  const clean = await stopAll(options.stages, drainMs, logger);
  signals.dispose();
  stderr.write(clean ? 'genbot: stopped\n' : 'genbot: stopped (some parts did not close cleanly)\n');
  // Everything is closed; a handle some library forgot must not keep the process running.
  setTimeout(() => process.exit(ExitCode.ok), 3000).unref();
  return ExitCode.ok;
}

export async function stopAll(stages: ShutdownOptions['stages'], drainMs: number, logger: Logger): Promise<boolean> {
  let clean = true;
  for (const stage of stages) {
    const results = await Promise.allSettled(stage.map((part) => part.stop(drainMs)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') {
        clean = false;
        logger.warn({ part: stage[index]?.name, err: result.reason }, 'did not stop cleanly');
      }
    });
  }
  return clean;
}
