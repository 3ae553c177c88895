import { ChannelBudget } from '../rendering/channel-budget.js';
import { copy } from '../copy/copy.js';
import { RefusalNotices } from '../chat/refusal-notices.js';
import { CancellationRegistry } from '../scheduling/cancellation-registry.js';
import type { ChannelPace } from '../scheduling/channel-pace.js';
import { JobScheduler } from '../scheduling/job-scheduler.js';
import type { SharedCancellations } from '../scheduling/shared-cancellations.js';
import { type LoopTurns, processTurns } from '../time/loop-turns.js';
import { Slots } from './slots.js';
import { ShutdownError } from './shutdown-error.js';

export interface BotRuntimeOptions {
  /** Admission of model calls (default: core's limits). Closed with the runtime. */
  scheduler?: JobScheduler;
  /** The channels' pace shared with other processes (Redis), when several post into the same channels. */
  pace?: ChannelPace;
  /** Triggers tracked for cancellation at once (default 10,000). */
  cancellationLimit?: number;
  /** Where jobs run in other processes (REDIS_URL): a deleted trigger is told to them too. */
  sharedCancellations?: SharedCancellations;
}

/** One piece of work a bot accepted: a reply, an image, an edit. */
export interface BotJob {
  /**
   * The message that started it, in the app's own key (`slack:C1:1700.0001`),
   * so that deleting that message cancels it; none for slash commands.
   */
  trigger?: string | undefined;
  /** The use case; `signal` aborts when the trigger is deleted or the drain runs out. */
  run(signal: AbortSignal): Promise<unknown>;
  /** What escaped the use case (they report their own failures to the user): logged by the app. */
  onError(error: unknown): void;
}

/** Whether a job was taken; when not, `answer` is what to tell the person. */
export type Admission = { accepted: true } | { accepted: false; answer: string };

export interface DrainOptions {
  /** How long running jobs may still take before they are aborted. */
  deadlineMs: number;
  /** After the abort, how long jobs get to leave their last word (the restart note) before the drain gives up on them. */
  abortGraceMs?: number;
}

export interface DrainResult {
  /** Every job ended before the deadline. */
  finishedInTime: boolean;
  /** Jobs still running when the drain gave up on them; the process ends them by exiting. */
  abandoned: number;
}

const DEFAULT_ABORT_GRACE_MS = 5_000;
/** Enough to keep a replica's store and queue busy, few enough that their answers spread over turns of the loop. */
const SUBMISSIONS_AT_ONCE = 4;

/**
 * What both bots do between start and stop, written once: taking work (or
 * refusing it with one answer once stopping has begun), cancelling the work a
 * deleted message started, and stopping. Stopping closes admission (the
 * scheduler turns away the jobs waiting in line, so none starts during the
 * drain), lets running jobs finish within a deadline, then aborts them: each
 * use case then leaves its last word, the restart note that keeps what was
 * asked. A bounded grace later the drain returns whatever still runs, so the
 * process can always exit.
 *
 * One runtime per process: bots that share it share its admission, its
 * scheduler's caps and its per-channel budget, and stop together.
 */
export class BotRuntime {
  readonly scheduler: JobScheduler;
  /** Every post and edit of the process's bots in a channel waits its turn here (`ChatDeps.channels`). */
  readonly channels: ChannelBudget;
  /** Refusals said to whom, where: a platform without private answers says each once a minute (`ChatDeps.notices`). */
  readonly notices = new RefusalNotices();
  /** Every delivery the process's bots take waits its turn of the event loop here, so a burst never runs in one stretch. */
  readonly turns: LoopTurns = processTurns;
  /** Submissions to the job intake in flight at once (`Slots`): the rest wait, so their answers never all come back together. */
  readonly submissions = new Slots(SUBMISSIONS_AT_ONCE);
  readonly #cancellations: CancellationRegistry;
  readonly #shared: SharedCancellations | undefined;
  /** Running jobs, each with its own controller: a finished job leaves nothing behind. */
  readonly #running = new Map<Promise<void>, AbortController>();
  #accepting = true;
  #drained: Promise<DrainResult> | undefined;

  constructor(options: BotRuntimeOptions = {}) {
    this.scheduler = options.scheduler ?? new JobScheduler();
    this.channels = new ChannelBudget(options.pace === undefined ? {} : { pace: options.pace });
    this.#cancellations = new CancellationRegistry(
      options.cancellationLimit === undefined ? {} : { limit: options.cancellationLimit },
    );
    this.#shared = options.sharedCancellations;
  }

  get accepting(): boolean {
    return this.#accepting;
  }

  /** Jobs accepted and not yet ended. */
  get running(): number {
    return this.#running.size;
  }

  /** Starts `job` at once, unless stopping has begun: then nothing runs and the answer says to come back. */
  start(job: BotJob): Admission {
    if (!this.#accepting) return { accepted: false, answer: copy.restarting };
    const controller = new AbortController();
    const { trigger } = job;
    let run: Promise<unknown>;
    try {
      run =
        trigger === undefined
          ? job.run(controller.signal)
          : this.#cancellations.run(trigger, (signal) => job.run(signal), controller.signal);
    } catch (error) {
      run = Promise.reject(error);
    }
    const settled = run.then(
      () => undefined,
      (error: unknown) => job.onError(error),
    );
    this.#running.set(settled, controller);
    void settled.finally(() => this.#running.delete(settled));
    return { accepted: true };
  }

  /** Cancels the work `trigger` started in this process; false when none runs here. */
  cancel(trigger: string): boolean {
    return this.#cancellations.cancel(trigger);
  }

  /**
   * The message `trigger` names was deleted: cancels its work here and, with
   * shared cancellations, wherever it runs or will start. True when work ran
   * here or the other processes were told; rejects when they could not be.
   */
  async cancelEverywhere(trigger: string): Promise<boolean> {
    const here = this.cancel(trigger);
    if (this.#shared === undefined) return here;
    await this.#shared.cancel(trigger);
    return true;
  }

  /** Takes no more work, and turns away the jobs waiting in the scheduler's line. Running jobs go on. */
  close(): void {
    if (!this.#accepting) return;
    this.#accepting = false;
    this.scheduler.close();
  }

  /**
   * Closes, then waits for the running jobs up to the deadline; past it,
   * aborts them and waits up to the grace for them to end. Called again
   * (a second bot on the same runtime), it returns the first drain.
   */
  drain(options: DrainOptions): Promise<DrainResult> {
    this.close();
    this.#drained ??= this.#drain(options.deadlineMs, options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS);
    return this.#drained;
  }

  async #drain(deadlineMs: number, abortGraceMs: number): Promise<DrainResult> {
    const finishedInTime = await this.#allEnded(deadlineMs);
    if (finishedInTime) return { finishedInTime, abandoned: 0 };
    const reason = new ShutdownError();
    for (const controller of this.#running.values()) controller.abort(reason);
    await this.#allEnded(abortGraceMs);
    return { finishedInTime, abandoned: this.#running.size };
  }

  /** True when every running job ended within `ms`. */
  async #allEnded(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const ended = (async (): Promise<true> => {
      while (this.#running.size > 0) await Promise.allSettled([...this.#running.keys()]);
      return true;
    })();
    try {
      return await Promise.race([ended, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
