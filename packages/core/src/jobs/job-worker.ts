import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from '../chat/deps.js';
import type { ChatLogger } from '../surface/ports.js';
import { resultButtons } from '../results/result-buttons.js';
import type { JobDelivery, JobHandler, JobQueue, QueuedJob } from '../scheduling/job-queue.js';
import { handedOver } from '../scheduling/job-handed-over-error.js';
import type { SharedCancellations } from '../scheduling/shared-cancellations.js';
import type { BotRuntime } from '../runtime/bot-runtime.js';
import type { JobRecord, NewJobStep, Platform, Store } from '../store/index.js';
import type { ChatJob, SurfaceFactory } from './chat-job.js';
import { giveUpJob } from './give-up-job.js';
import { configOf } from './job-config.js';
import { imagesOf } from './image-admission.js';
import { planJob } from './job-plan.js';
import { takeBackFirstPost } from './places-in-line.js';
import { parseChatJob, UnreadableJobError } from './parse-chat-job.js';
import { quotaNote, withQuotaNote } from './quota-note-surface.js';
import { recordUsage } from './record-usage.js';
import { recordedSurface } from './recorded-surface.js';
import { type ResumeResult, resumeJobs } from './resume-jobs.js';
import { tellJobOwner } from './tell-job-owner.js';
import { toolJobOf } from './tool-job-steps.js';
import { type StoredCall, type UntilStoredOptions, untilStored } from './until-stored.js';
import { UsageMeter } from './usage-meter.js';
import { versionRecorder } from './version-recorder.js';
import type { QuotaConfig } from '../config/load-config.js';

export { MAX_RESUME_AGE_MS, type ResumeResult } from './resume-jobs.js';

export interface JobWorkerOptions {
  store: Store;
  runtime: BotRuntime;
  surfaces: readonly SurfaceFactory[];
  /** What every use case shares; the worker adds the job's surface and meters the models. */
  deps: Omit<ChatDeps, 'surface' | 'scheduler' | 'channels'>;
  logger: ChatLogger;
  /** The daily quotas: an /imagine's progress message says what is left when little is. */
  quota?: QuotaConfig | undefined;
  maxResumeAgeMs?: number;
  now?: () => Date;
  /** How long a press waits for the result it was pressed on to finish posting, and how often it looks. */
  postedWait?: { timeoutMs?: number; pollMs?: number };
  /** How often a store call is tried again while the database cannot be used (tests make it quick). */
  storeRetry?: Pick<UntilStoredOptions, 'firstDelayMs' | 'maxDelayMs'>;
  /**
   * Where the trigger's deletion was heard by another process (REDIS_URL):
   * a job whose trigger was cancelled before it started is not run.
   */
  cancellations?: Pick<SharedCancellations, 'cancelled'> | undefined;
}

/**
 * Runs chat jobs taken from the queue: claims each in the store (a job
 * finished or unknown there is acknowledged without running, so a repeat
 * delivery is one job), builds its platform's surface from the job alone,
 * runs the use case under the bot runtime (a deleted trigger cancels it, the
 * drain stops it), records its usage and image versions, and finishes it.
 * Every visible step is recorded before the next, so a job run again after a
 * crash resumes where it stopped. A job the drain caught stays unfinished:
 * the next start resumes it. While the database cannot be used, a job
 * waits at its next store call and goes on by itself once it answers.
 */
export class JobWorker {
  readonly #options: JobWorkerOptions;
  readonly #surfaces = new Map<Platform, SurfaceFactory>();

  constructor(options: JobWorkerOptions) {
    this.#options = options;
    for (const factory of options.surfaces) this.#surfaces.set(factory.platform, factory);
  }

  get platforms(): Platform[] {
    return [...this.#surfaces.keys()];
  }

  readonly handle: JobHandler = async (delivery: JobDelivery): Promise<void> => {
    const { store, runtime, logger } = this.#options;
    if (!runtime.accepting) return;
    const record = await this.#stored('claim the job', () => store.jobs.claim(delivery.job.id));
    if (record === undefined) {
      logger.info({ jobId: delivery.job.id }, 'job already finished or unknown: not run again');
      return;
    }
    let job: ChatJob;
    try {
      job = parseChatJob(record);
    } catch (error) {
      if (!(error instanceof UnreadableJobError)) throw error;
      logger.error({ err: error, jobId: record.id }, 'job cannot be read: refused');
      await this.#tellRecord(record, copy.unreadableJob);
      await this.#stored('finish the job', () => store.jobs.finish(record.id, 'failed', 'unreadable'));
      return;
    }
    await this.#run(job, record, delivery.signal);
  };

  /** On start: this process's platforms' unfinished jobs queued again or ended (see `resumeJobs`). */
  resume(queue: JobQueue): Promise<ResumeResult> {
    const { store, logger, maxResumeAgeMs } = this.#options;
    return resumeJobs(queue, {
      store,
      logger,
      platforms: this.platforms,
      maxResumeAgeMs,
      now: (this.#options.now?.() ?? new Date()).getTime(),
      giveUp: this.giveUp,
      tell: (record, text) => this.#tellRecord(record, text),
    });
  }

  /** For a job the queue gave up on: ended as failed and its user told, once (see `giveUpJob`). */
  readonly giveUp = (queued: QueuedJob): Promise<void> => {
    const { store, logger } = this.#options;
    return giveUpJob(queued, {
      store,
      logger,
      stored: this.#stored,
      tell: (record, text) => this.#tellRecord(record, text),
    });
  };

  async #run(job: ChatJob, record: JobRecord, delivery: AbortSignal): Promise<void> {
    const { store, runtime, logger } = this.#options;
    const factory = this.#factory(job.platform);
    const meter = new UsageMeter();
    const platformSurface = factory.surfaceFor(job, record.steps);
    const plan = await planJob(job, platformSurface, {
      versions: store.versions,
      stored: this.#stored,
      logger,
      postedWait: this.#options.postedWait,
    });
    // A conversation's tool calls say what each of their results is; every other job's is known from its plan.
    let lineage = plan.lineage;
    const steps = {
      recordStep: (id: string, step: NewJobStep) =>
        this.#stored('record a step', () => store.jobs.recordStep(id, step)),
    };
    const recorded = recordedSurface(platformSurface, record, steps, {
      recorder: versionRecorder(job, () => lineage, { versions: store.versions, stored: this.#stored }),
      buttons: (firstIndex, count, numbers) =>
        lineage === undefined
          ? []
          : resultButtons({ jobId: job.id, firstIndex, count, numbers, reroll: lineage.reroll, undo: lineage.undo }),
    });
    const note = await quotaNote(job, { quota: this.#options.quota, usage: store.usage, logger });
    const surface = note === undefined ? recorded : withQuotaNote(recorded, note);
    const deps: ChatDeps = {
      ...this.#options.deps,
      config: configOf(job, this.#options.deps.config),
      surface,
      images: meter.wrapImages(this.#options.deps.images),
      chat: meter.wrapChat(this.#options.deps.chat),
      scheduler: runtime.scheduler,
      channels: runtime.channels,
      numberImages: recorded.numberImages,
      toolJob: toolJobOf(job, record, recorded, {
        store,
        stored: this.#stored,
        quota: this.#options.quota,
        logger,
        nextResult: (next) => {
          lineage = next;
        },
        madeBefore: (images) => meter.countMadeBefore(images),
        now: this.#options.now,
      }),
    };
    const trigger = factory.cancelKey?.(job);
    const outcome = await new Promise<ChatOutcome | 'stopped' | 'cancelled'>((resolve) => {
      const admission = runtime.start({
        trigger,
        run: async (signal) => {
          // Asked once the runtime tracks the trigger: a cancellation told after this answer reaches the signal.
          if (trigger !== undefined && (await this.#cancelledBeforeStart(trigger, job.id))) {
            resolve('cancelled');
            return;
          }
          resolve(await plan.run(deps, AbortSignal.any([signal, delivery])));
        },
        onError: (error) => {
          logger.error({ err: error, jobId: job.id }, 'job failed');
          resolve('failed');
        },
      });
      if (!admission.accepted) resolve('stopped');
    });
    const used = meter.usage();
    await recordUsage(job, used, { usage: store.usage, stored: this.#stored, logger });
    // Another worker runs it now from its recorded steps, and finishes it.
    if (handedOver(delivery)) {
      logger.warn({ jobId: job.id }, 'job handed to another worker: this run stopped');
      return;
    }
    // Caught by the drain (its last word says it continues after the restart): the next start resumes it.
    if (outcome === 'stopped' || (!runtime.accepting && outcome !== 'done')) {
      logger.info({ jobId: job.id }, 'job left for the next start');
      return;
    }
    // Ends having made nothing on its only run: what admission held for it goes back. A run
    // before may have made images its usage holds, so a resumed job keeps what is counted.
    const held = imagesOf(job);
    if (used.images === 0 && held > 0 && record.attempts === 1) {
      await this.#stored('give back reserved images', () => store.usage.releaseImages(job.id, held));
    }
    if (outcome === 'cancelled') {
      logger.info({ jobId: job.id }, 'trigger deleted before the job started: not run');
      await this.#stored('finish the job', () => store.jobs.finish(job.id, 'rejected', 'cancelled'));
      try {
        await takeBackFirstPost({ surface: platformSurface, channels: runtime.channels, logger }, job, record);
      } catch (error) {
        logger.warn({ err: error, jobId: job.id }, 'could not take back the place in line of a cancelled job');
      }
      return;
    }
    await this.#stored('finish the job', () => store.jobs.finish(job.id, outcome));
  }

  /** True when another process heard the trigger deleted; a cancellation that cannot be read lets the job run. */
  async #cancelledBeforeStart(trigger: string, jobId: string): Promise<boolean> {
    const { cancellations, logger } = this.#options;
    if (cancellations === undefined) return false;
    try {
      return await cancellations.cancelled(trigger);
    } catch (error) {
      logger.warn({ err: error, jobId }, 'could not tell whether the trigger was deleted; the job runs');
      return false;
    }
  }

  /** A store call that waits out a database outage (until the drain begins). */
  readonly #stored: StoredCall = (what, call) => {
    const { logger, runtime } = this.#options;
    return untilStored(what, call, { logger, stopped: () => !runtime.accepting, ...this.#options.storeRetry });
  };

  #factory(platform: Platform): SurfaceFactory {
    const factory = this.#surfaces.get(platform);
    if (factory === undefined) throw new Error(`no surface for ${platform} jobs in this process`);
    return factory;
  }

  /** A short message in the job's place, for a job that cannot run. */
  #tellRecord(record: JobRecord, text: string): Promise<void> {
    return tellJobOwner(this.#surfaces, record, text, this.#options.logger);
  }
}
