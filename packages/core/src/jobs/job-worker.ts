import { isImageAttachment } from '../files/attachments.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from '../chat/deps.js';
import { handleMention } from '../chat/handle-mention.js';
import { imagine } from '../chat/imagine.js';
import type { ChatLogger } from '../surface/ports.js';
import type { ChatSurface, UploadFile, UploadReceipt } from '../surface/surface.js';
import { say } from '../chat/status-message.js';
import type { VersionLineage } from '../results/lineage.js';
import { resolveResultAction } from '../results/resolve-action.js';
import { resultButtons } from '../results/result-buttons.js';
import { JobGivenUpError } from '../scheduling/job-given-up-error.js';
import type { JobDelivery, JobHandler, JobQueue, QueuedJob } from '../scheduling/job-queue.js';
import { handedOver } from '../scheduling/job-handed-over-error.js';
import type { SharedCancellations } from '../scheduling/shared-cancellations.js';
import type { BotRuntime } from '../runtime/bot-runtime.js';
import {
  type ImageVersionKey,
  isPosted,
  type JobRecord,
  type NewJobStep,
  type Platform,
  type Store,
} from '../store/index.js';
import { type ChatJob, type SurfaceFactory, targetOf } from './chat-job.js';
import { queuedJob } from './chat-job-intake.js';
import { takeBackFirstPost } from './places-in-line.js';
import { askedIn, parseChatJob, UnreadableJobError } from './parse-chat-job.js';
import { recordedSurface } from './recorded-surface.js';
import { type UntilStoredOptions, untilStored } from './until-stored.js';
import { UsageMeter } from './usage-meter.js';
import { sha256Hex } from './image-digest.js';
import { closeToLimit, quotaStatus } from './daily-quota.js';
import { withQuotaNote } from './quota-note-surface.js';
import type { QuotaConfig } from '../config/load-config.js';
import { systemClock } from '../time/clock.js';

const DEFAULT_POSTED_WAIT = { timeoutMs: 60_000, pollMs: 50 };
const MAX_POSTED_POLL_MS = 1_000;

/** A job older than this when the process starts is told to retry instead of resumed (a Discord interaction token lasts 15 minutes). */
export const MAX_RESUME_AGE_MS = 15 * 60 * 1000;

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

export interface ResumeResult {
  resumed: number;
  /** Ended without running again: too old to resume, or given up on by the queue. */
  abandoned: number;
  /** Waiting or running in the shared queue already (another worker holds them): left to it. */
  held: number;
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

  /**
   * On start: every unfinished job of this process's platforms is queued
   * again, or, past the resume age, ends with a short message saying the bot
   * restarted and how to retry. A job the queue still holds (waiting, or
   * running in another worker, however old) is left to the queue: that worker
   * finishes it, or the queue hands it to another once its lock lapses. One
   * the queue gave up on ends as failed (`giveUp`) instead of queued again.
   */
  async resume(queue: JobQueue): Promise<ResumeResult> {
    const { store, logger } = this.#options;
    const maxAge = this.#options.maxResumeAgeMs ?? MAX_RESUME_AGE_MS;
    const now = (this.#options.now?.() ?? new Date()).getTime();
    const result: ResumeResult = { resumed: 0, abandoned: 0, held: 0 };
    for (const record of await store.jobs.unfinished(this.platforms)) {
      const queued = queuedJob(record);
      if (await queue.holds(queued)) {
        result.held += 1;
        continue;
      }
      if (now - record.createdAt.getTime() <= maxAge) {
        try {
          await queue.add(queued);
          result.resumed += 1;
        } catch (error) {
          // A process that died before it ended the job it was told of: ended here.
          if (!(error instanceof JobGivenUpError)) throw error;
          await this.giveUp(queued);
          result.abandoned += 1;
        }
        continue;
      }
      // Finished first: of two workers starting together, only the one that ends it tells the user.
      if (!(await store.jobs.finish(record.id, 'abandoned', 'too old to resume'))) continue;
      let text = copy.unreadableJob;
      try {
        text = copy.restartedTooLate(askedIn(parseChatJob(record)));
      } catch (error) {
        logger.warn({ err: error, jobId: record.id }, 'abandoned job cannot be read');
      }
      await this.#tellRecord(record, text);
      result.abandoned += 1;
    }
    if (result.resumed + result.abandoned + result.held > 0)
      logger.info({ ...result }, 'unfinished jobs picked up after a restart');
    return result;
  }

  /**
   * For a job the queue gave up on (it stalled, its worker dying or hanging,
   * more often than allowed): ends it as failed and tells the user, once
   * however many processes hear of it, so no resume queues it again.
   */
  readonly giveUp = async (queued: QueuedJob): Promise<void> => {
    const { store, logger } = this.#options;
    const record = await this.#stored('read the job', () => store.jobs.get(queued.id));
    if (record === undefined || record.state === 'finished') return;
    if (!(await this.#stored('finish the job', () => store.jobs.finish(record.id, 'failed', 'stalled too often')))) {
      return;
    }
    logger.error({ jobId: record.id }, 'job given up on: its worker died or hung mid-job too often');
    let text = copy.unreadableJob;
    try {
      text = copy.interruptedTooOften(askedIn(parseChatJob(record)));
    } catch (error) {
      logger.warn({ err: error, jobId: record.id }, 'job given up on cannot be read');
    }
    await this.#tellRecord(record, text);
  };

  async #run(job: ChatJob, record: JobRecord, delivery: AbortSignal): Promise<void> {
    const { store, runtime, logger } = this.#options;
    const factory = this.#factory(job.platform);
    const meter = new UsageMeter();
    const platformSurface = factory.surfaceFor(job);
    const plan = await this.#plan(job, platformSurface);
    const { lineage } = plan;
    const steps = {
      recordStep: (id: string, step: NewJobStep) =>
        this.#stored('record a step', () => store.jobs.recordStep(id, step)),
    };
    const recorded = recordedSurface(platformSurface, record, steps, {
      recorder: {
        before: async (files, first) => {
          const numbers = await this.#recordVersions(job, files, {}, first, lineage);
          return { numbers, comment: lineage?.comment?.(numbers) };
        },
        after: async (files, receipt, first) => {
          await this.#recordVersions(job, files, receipt, first, lineage);
        },
      },
      buttons: (firstIndex, count, numbers) =>
        lineage === undefined
          ? []
          : resultButtons({ jobId: job.id, firstIndex, count, numbers, reroll: lineage.reroll, undo: lineage.undo }),
    });
    const note = await this.#quotaNote(job);
    const surface = note === undefined ? recorded : withQuotaNote(recorded, note);
    const deps: ChatDeps = {
      ...this.#options.deps,
      surface,
      images: meter.wrapImages(this.#options.deps.images),
      chat: meter.wrapChat(this.#options.deps.chat),
      scheduler: runtime.scheduler,
      channels: runtime.channels,
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
    await this.#recordUsage(job, meter);
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
  #stored<T>(what: string, call: () => Promise<T>): Promise<T> {
    const { logger, runtime } = this.#options;
    return untilStored(what, call, { logger, stopped: () => !runtime.accepting, ...this.#options.storeRetry });
  }

  /**
   * What a job runs and what its images will be in the version tree. A
   * button's job reads the tree first; one whose record is gone is answered
   * in its place.
   */
  async #plan(
    job: ChatJob,
    platformSurface: ChatSurface,
  ): Promise<{ lineage?: VersionLineage | undefined; run(deps: ChatDeps, signal: AbortSignal): Promise<ChatOutcome> }> {
    const { input } = job;
    switch (input.kind) {
      case 'imagine':
        return {
          lineage: {
            origin: 'generated',
            prompt: input.imagine.prompt,
            aspectRatio: input.imagine.aspectRatio?.trim() || undefined,
            reroll: true,
            undo: false,
          },
          run: (deps, signal) => imagine(input.imagine, deps, signal),
        };
      case 'mention': {
        const parentKey = await this.#stored('find the version edited', () => this.#parentOf(job));
        const parent =
          parentKey === undefined
            ? undefined
            : await this.#stored('read the version edited', () => this.#options.store.versions.get(parentKey));
        const instruction = input.mention.trigger.text.trim();
        const lineage: VersionLineage = {
          origin: 'edited',
          parent: parentKey,
          prompt: instruction,
          reroll: parent !== undefined,
          undo: parent !== undefined,
          comment:
            parent === undefined ? undefined : (numbers) => copy.editedComment(numbers, parent.number, instruction),
        };
        return { lineage, run: (deps, signal) => handleMention(input.mention, deps, signal) };
      }
      default: {
        // A press that came as its result showed: the result's own job is still recording where it is.
        if (!(await this.#whenPosted(input.action.version))) {
          this.#options.logger.info({ jobId: job.id, kind: input.kind }, 'button job refused: its image never posted');
          return {
            run: async (deps) => {
              await say(deps, input.action.target, copy.versionNotPosted);
              return 'rejected';
            },
          };
        }
        // Read from the store like every other step: a database outage is waited out, not a failed press.
        const resolved = await this.#stored('read the version pressed', () =>
          resolveResultAction(input.kind, input.action, this.#options.store.versions, platformSurface),
        );
        if (resolved.ok) return resolved;
        this.#options.logger.info({ jobId: job.id, kind: input.kind }, 'button job refused: its record is gone');
        return {
          run: async (deps) => {
            await say(deps, input.action.target, resolved.answer);
            return 'rejected';
          },
        };
      }
    }
  }

  /** What is left of the user's daily quotas, for an /imagine, when little is; a store that cannot say shows none. */
  async #quotaNote(job: ChatJob): Promise<string | undefined> {
    const { quota, store, logger } = this.#options;
    if (quota === undefined || job.input.kind !== 'imagine') return undefined;
    try {
      const close = closeToLimit(await quotaStatus(store.usage, job, quota));
      return close.length === 0 ? undefined : copy.quotaLeft(close);
    } catch (error) {
      logger.warn({ err: error, jobId: job.id }, 'could not read the quota left');
      return undefined;
    }
  }

  #factory(platform: Platform): SurfaceFactory {
    const factory = this.#surfaces.get(platform);
    if (factory === undefined) throw new Error(`no surface for ${platform} jobs in this process`);
    return factory;
  }

  /** The version a mention edits: the message it replies to (Discord), or the thread's latest image (Slack). */
  async #parentOf(job: ChatJob): Promise<ImageVersionKey | undefined> {
    if (job.input.kind !== 'mention') return undefined;
    const { versions } = this.#options.store;
    const { referenced, target, trigger } = job.input.mention;
    // An image attached to the mention itself is what it edits: not a version the bot made.
    if (trigger.attachments.some(isImageAttachment)) return undefined;
    if (referenced !== undefined) {
      const shown = await versions.byMessage(job.platform, target.channelId, referenced.id);
      if (shown[0] !== undefined) return { jobId: shown[0].jobId, index: shown[0].index };
    }
    if (target.threadId === undefined) return undefined;
    const latest = await versions.latestInThread(job.platform, target.channelId, target.threadId);
    return latest === undefined ? undefined : { jobId: latest.jobId, index: latest.index };
  }

  /**
   * Waits while the version pressed is recorded but not yet posted (its
   * result showed a moment before its job recorded the message and file ids),
   * for at most `postedWait.timeoutMs`. False when it is still not posted
   * then (its upload failed after it was recorded); true otherwise, a version
   * that is gone included (resolving the press says so).
   */
  async #whenPosted(key: ImageVersionKey): Promise<boolean> {
    const { timeoutMs, pollMs } = { ...DEFAULT_POSTED_WAIT, ...this.#options.postedWait };
    const deadline = systemClock.now() + timeoutMs;
    let pause = pollMs;
    for (;;) {
      const version = await this.#stored('read the version pressed', () => this.#options.store.versions.get(key));
      if (version === undefined || isPosted(version)) return true;
      if (systemClock.now() >= deadline) return false;
      await systemClock.sleep(Math.min(pause, Math.max(0, deadline - systemClock.now())));
      pause = Math.min(pause * 2, MAX_POSTED_POLL_MS);
    }
  }

  /** Records the images of one upload (before it without ids, after it with them); returns their version numbers. */
  async #recordVersions(
    job: ChatJob,
    files: readonly UploadFile[],
    receipt: UploadReceipt,
    first: number,
    lineage: VersionLineage | undefined,
  ): Promise<number[]> {
    const target = targetOf(job);
    const numbers: number[] = [];
    for (const [offset, file] of files.entries()) {
      const version = {
        jobId: job.id,
        index: first + offset,
        platform: job.platform,
        workspaceId: job.workspaceId,
        channelId: target.channelId,
        threadId: target.threadId,
        messageId: receipt.messageId,
        fileId: receipt.fileIds?.[offset],
        mimeType: file.mimeType,
        sizeBytes: file.bytes.byteLength,
        sha256: await sha256Hex(file.bytes),
        parent: lineage?.parent,
        prompt: lineage?.prompt ?? askedIn(job),
        origin: lineage?.origin,
        aspectRatio: lineage?.aspectRatio,
      };
      const recorded = await this.#stored('record an image version', () =>
        this.#options.store.versions.record(version),
      );
      numbers.push(recorded.number);
    }
    return numbers;
  }

  async #recordUsage(job: ChatJob, meter: UsageMeter): Promise<void> {
    const usage = meter.usage();
    if (usage.images === 0 && usage.inputTokens === 0 && usage.outputTokens === 0) return;
    const entry = { jobId: job.id, platform: job.platform, workspaceId: job.workspaceId, userId: job.userId, ...usage };
    try {
      await this.#stored('record the usage', () => this.#options.store.usage.record(entry));
    } catch (error) {
      this.#options.logger.error({ err: error, jobId: job.id }, 'could not record the usage of a job');
    }
  }

  /** A short message in the job's place, for a job that cannot run; logged when even that fails. */
  async #tellRecord(record: JobRecord, text: string): Promise<void> {
    const factory = this.#surfaces.get(record.platform);
    if (factory === undefined) return;
    const job: ChatJob = {
      id: record.id,
      platform: record.platform,
      workspaceId: record.workspaceId,
      channelId: record.channelId,
      threadId: record.threadId,
      userId: record.userId,
      input: {
        kind: 'imagine',
        imagine: {
          target: { channelId: record.channelId, threadId: record.threadId },
          prompt: '',
          userId: record.userId,
        },
      },
      interaction: record.interaction,
    };
    try {
      const surface = factory.surfaceFor(job);
      const formatted = text.slice(0, surface.limits.maxMessageChars);
      await surface.post({ channelId: record.channelId, threadId: record.threadId }, formatted);
    } catch (error) {
      this.#options.logger.error({ err: error, jobId: record.id }, 'could not tell the user about a job');
    }
  }
}
