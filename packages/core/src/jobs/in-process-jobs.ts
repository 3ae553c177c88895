import type { ChatLogger } from '../surface/ports.js';
import type { QuotaConfig } from '../config/load-config.js';
import { InProcessJobQueue } from '../scheduling/in-process-queue.js';
import type { JobLane } from '../scheduling/lane-limits.js';
import type { BotRuntime } from '../runtime/bot-runtime.js';
import type { Store } from '../store/index.js';
import type { SurfaceFactory } from './chat-job.js';
import { ChatJobIntake } from './chat-job-intake.js';
import { JobWorker, type JobWorkerOptions } from './job-worker.js';
import { ResultPresses } from './result-presses.js';
import { LedgerUsageReporter } from './usage-report.js';

const NO_QUOTA: QuotaConfig = { imagesPerDay: undefined, chatTokensPerDay: undefined };

/**
 * The scheduler's own limits decide what runs and what waits in line (with
 * its place shown), so the queue hands jobs over as soon as they come.
 */
const DEFAULT_CONCURRENCY: Readonly<Record<JobLane, number>> = { image: 64, stream: 128 };

export interface InProcessJobsOptions {
  store: Store;
  /** The bots' runtime: its drain stops the jobs, and its admission closes the intake. */
  runtime: BotRuntime;
  quota?: QuotaConfig | undefined;
  deps: JobWorkerOptions['deps'];
  logger: ChatLogger;
  concurrency?: Readonly<Record<JobLane, number>>;
}

/**
 * Jobs recorded in a store and run in this process: the intake a bot submits
 * through, `/usage`, the result buttons' presses, and the worker, started once the bots' surfaces exist.
 * What the launcher composes around its database connection, and what tests
 * and benchmarks start a bot with.
 */
export class InProcessJobs {
  readonly queue: InProcessJobQueue;
  readonly intake: ChatJobIntake;
  readonly usage: LedgerUsageReporter;
  /** The buttons under results: presses and their forms, checked and admitted before the platform is answered. */
  readonly presses: ResultPresses;
  readonly #options: InProcessJobsOptions;

  constructor(options: InProcessJobsOptions) {
    this.#options = options;
    const { store, runtime, logger } = options;
    const quota = options.quota ?? NO_QUOTA;
    this.queue = new InProcessJobQueue({
      onHandlerError: (job, error) =>
        logger.error({ err: error, jobId: job.id }, 'job could not be run; kept for the next start'),
    });
    this.intake = new ChatJobIntake({ store, queue: this.queue, runtime, quota, logger });
    this.usage = new LedgerUsageReporter(store.usage, quota);
    this.presses = new ResultPresses({ versions: store.versions, intake: this.intake, logger });
  }

  /** Resumes the unfinished jobs of these surfaces' platforms, then takes jobs from the queue. */
  async startWorker(surfaces: readonly SurfaceFactory[]): Promise<JobWorker> {
    const { store, runtime, quota, deps, logger } = this.#options;
    const worker = new JobWorker({ store, runtime, surfaces, deps, logger, quota });
    this.intake.showPlacesOn(surfaces);
    await worker.resume(this.queue);
    this.queue.process(worker.handle, {
      concurrency: this.#options.concurrency ?? DEFAULT_CONCURRENCY,
      platforms: worker.platforms,
    });
    return worker;
  }
}
