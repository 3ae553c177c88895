import { copy } from '../copy/copy.js';
import { JobGivenUpError } from '../scheduling/job-given-up-error.js';
import type { JobQueue, QueuedJob } from '../scheduling/job-queue.js';
import type { ChatLogger } from '../surface/ports.js';
import type { JobRecord, Platform, Store } from '../store/index.js';
import { queuedJob } from './chat-job-intake.js';
import { giveBackReservation } from './image-admission.js';
import { endedNotice } from './tell-job-owner.js';

/** A job older than this when the process starts is told to retry instead of resumed (a Discord interaction token lasts 15 minutes). */
export const MAX_RESUME_AGE_MS = 15 * 60 * 1000;

export interface ResumeResult {
  resumed: number;
  /** Ended without running again: too old to resume, or given up on by the queue. */
  abandoned: number;
  /** Waiting or running in the shared queue already (another worker holds them): left to it. */
  held: number;
}

export interface ResumeDeps {
  store: Pick<Store, 'jobs' | 'usage'>;
  logger: ChatLogger;
  platforms: readonly Platform[];
  maxResumeAgeMs?: number | undefined;
  now: number;
  giveUp(queued: QueuedJob): Promise<void>;
  tell(record: JobRecord, text: string): Promise<void>;
}

/**
 * On start: every unfinished job of this process's platforms is queued
 * again, or, past the resume age, ends with a short message saying the bot
 * restarted and how to retry. A job the queue still holds (waiting, or
 * running in another worker, however old) is left to the queue: that worker
 * finishes it, or the queue hands it to another once its lock lapses. One
 * the queue gave up on ends as failed (`giveUp`) instead of queued again.
 */
export async function resumeJobs(queue: JobQueue, deps: ResumeDeps): Promise<ResumeResult> {
  const { store, logger, now } = deps;
  const maxAge = deps.maxResumeAgeMs ?? MAX_RESUME_AGE_MS;
  const result: ResumeResult = { resumed: 0, abandoned: 0, held: 0 };
  for (const record of await store.jobs.unfinished([...deps.platforms])) {
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
        await deps.giveUp(queued);
        result.abandoned += 1;
      }
      continue;
    }
    // Finished first: of two workers starting together, only the one that ends it tells the user.
    if (!(await store.jobs.finish(record.id, 'abandoned', 'too old to resume'))) continue;
    await giveBackReservation(store.usage, record, logger);
    await deps.tell(record, endedNotice(record, copy.restartedTooLate, logger, 'abandoned job cannot be read'));
    result.abandoned += 1;
  }
  if (result.resumed + result.abandoned + result.held > 0)
    logger.info({ ...result }, 'unfinished jobs picked up after a restart');
  return result;
}
