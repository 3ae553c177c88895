import type { Logger } from '@genbot/core/log';
import { ExitCode } from '../exit-codes.js';
import { type Stoppable, stopAll } from '../wiring/closing.js';

/** Bounded wait for replies and uploads in progress when a signal arrives. */
export const DRAIN_MS = 20_000;

/**
 * Past the drain: the aborted jobs' last words (core gives them 5 s) and closing connections.
 * A process still running this long after the drain ran out exits anyway: a supervisor
 * waiting for it to stop must never have to kill it (packages/test-servers/src/genbot/topology.ts's STOP_LIMIT_MS
 * holds deployments to DRAIN_MS plus this).
 */
const STOP_MARGIN_MS = 10_000;

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export type StopCause =
  | { kind: 'signal'; signal: NodeJS.Signals }
  | { kind: 'fatal'; origin: 'uncaughtException' | 'unhandledRejection'; error: unknown };

/**
 * What ends a bot process, listened to from the very start: SIGINT or SIGTERM (a signal that
 * arrives while the bots are still starting must not kill the process halfway through), and an
 * error nothing caught, which is logged as fatal and ends the process like a signal, with a
 * non-zero status so a supervisor restarts it.
 */
export class StopTriggers {
  readonly #stderr: NodeJS.WritableStream;
  readonly #logger: Logger;
  readonly first: Promise<StopCause>;
  #cause: StopCause | undefined;
  #echoes: number;
  #stoppedWith: ExitCode | undefined;
  #resolveFirst: (cause: StopCause) => void = () => {};

  /**
   * `underPackageManager`: started by a `pnpm`/`npm` script. A terminal's Ctrl-C (or a signal to
   * the process group) reaches the bot directly and the package manager forwards its own copy as
   * well, as late as its event loop gets to it: the first repeat of the first signal is that copy,
   * however late, and not a second request.
   */
  constructor(stderr: NodeJS.WritableStream, logger: Logger, underPackageManager = false) {
    this.#stderr = stderr;
    this.#logger = logger;
    this.#echoes = underPackageManager ? 1 : 0;
    this.first = new Promise((resolve) => {
      this.#resolveFirst = resolve;
    });
    for (const name of SIGNALS) process.on(name, this.#onSignal);
    process.on('uncaughtException', this.#onException);
    process.on('unhandledRejection', this.#onRejection);
  }

  #stop(cause: StopCause): void {
    if (this.#cause !== undefined) return;
    this.#cause = cause;
    this.#resolveFirst(cause);
  }

  readonly #onSignal = (signal: NodeJS.Signals): void => {
    if (this.#stoppedWith !== undefined) {
      process.exit(this.#stoppedWith);
      return;
    }
    const previous = this.#cause;
    if (previous === undefined) {
      this.#stop({ kind: 'signal', signal });
      return;
    }
    if (previous.kind === 'signal' && previous.signal === signal && this.#echoes > 0) {
      this.#echoes -= 1;
      return;
    }
    // Another signal: the person wants out now, whatever is still finishing.
    this.#stderr.write(`genbot: ${signal} again, stopping without waiting\n`);
    this.dispose();
    process.exit(ExitCode.interrupted);
  };

  readonly #onException = (error: Error): void => this.#fatal('uncaughtException', error);
  readonly #onRejection = (reason: unknown): void => this.#fatal('unhandledRejection', reason);

  #fatal(origin: 'uncaughtException' | 'unhandledRejection', error: unknown): void {
    this.#logger.fatal({ err: error, origin }, 'an error nothing caught: stopping');
    if (this.#cause !== undefined) return;
    // Set now: whatever happens while stopping, the process must not end as a success.
    process.exitCode = ExitCode.unexpected;
    this.#stderr.write(
      `genbot: ${origin === 'uncaughtException' ? 'uncaught exception' : 'unhandled rejection'}: ${describe(error)}\n`,
    );
    this.#stop({ kind: 'fatal', origin, error });
  }

  /**
   * Everything is closed and the process is about to end with `status`. The listeners stay: a
   * package manager's copy of the signal can arrive even now, on a loaded machine seconds later,
   * and without a listener it would kill the process and turn a clean stop into "interrupted".
   * Any signal from here on ends the process at once, with the status already decided.
   */
  stopped(status: ExitCode): void {
    this.#stoppedWith = status;
  }

  dispose(): void {
    for (const name of SIGNALS) process.off(name, this.#onSignal);
    process.off('uncaughtException', this.#onException);
    process.off('unhandledRejection', this.#onRejection);
  }
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? '';
}

export interface ShutdownOptions {
  triggers: StopTriggers;
  /** Stopped one stage after the other; the parts of a stage together. */
  stages: readonly (readonly Stoppable[])[];
  logger: Logger;
  stderr: NodeJS.WritableStream;
  drainMs?: number;
}

/**
 * Waits for a stop trigger, then stops everything in order (admission closed, work in progress
 * finished within the drain time or aborted, connections closed) and ends the process with its
 * status: 0 after a signal, 1 after a fatal error; within the drain time plus a margin whatever
 * hangs.
 */
export async function waitForShutdown(options: ShutdownOptions): Promise<never> {
  const { logger, stderr, triggers } = options;
  const drainMs = options.drainMs ?? DRAIN_MS;
  const cause = await triggers.first;
  const status = cause.kind === 'signal' ? ExitCode.ok : ExitCode.unexpected;
  const limitMs = drainMs + STOP_MARGIN_MS;
  setTimeout(() => {
    stderr.write(`genbot: still not stopped after ${Math.round(limitMs / 1000)} s, exiting\n`);
    process.exit(ExitCode.unexpected);
  }, limitMs).unref();
  const why = cause.kind === 'signal' ? `${cause.signal} received` : 'stopping after a fatal error';
  stderr.write(`genbot: ${why}, finishing replies in progress (up to ${Math.round(drainMs / 1000)} s)\n`);
  logger.info(cause.kind === 'signal' ? { signal: cause.signal } : { origin: cause.origin }, 'shutting down');
  const clean = await stopAll(options.stages, drainMs, logger);
  triggers.stopped(status);
  stderr.write(clean ? 'genbot: stopped\n' : 'genbot: stopped (some parts did not close cleanly)\n');
  // Everything is closed: exit now rather than when the event loop empties. Node's own teardown
  // removes the signal handlers before the process ends, and a package manager's late copy of
  // the signal landing then would kill it (pnpm then reports "interrupted", 130, for a clean
  // stop). Standard streams are synchronous on Linux (terminal, file or pipe), and the log
  // transport flushes on exit.
  process.exit(status);
}
