import { copy } from '../copy/copy.js';
import type { QueuedJob } from '../scheduling/job-queue.js';
import type { ResumeDeps } from './resume-jobs.js';
import { giveBackReservation } from './image-admission.js';
import { endedNotice } from './tell-job-owner.js';
import type { StoredCall } from './until-stored.js';

/**
 * For a job the queue gave up on (it stalled, its worker dying or hanging,
 * more often than allowed): ends it as failed and tells the user, once
 * however many processes hear of it, so no resume queues it again.
 */
export async function giveUpJob(
  queued: QueuedJob,
  deps: Pick<ResumeDeps, 'store' | 'logger' | 'tell'> & { stored: StoredCall },
): Promise<void> {
  const { store, logger, stored } = deps;
  const record = await stored('read the job', () => store.jobs.get(queued.id));
  if (record === undefined || record.state === 'finished') return;
  if (!(await stored('finish the job', () => store.jobs.finish(record.id, 'failed', 'stalled too often')))) return;
  logger.error({ jobId: record.id }, 'job given up on: its worker died or hung mid-job too often');
  await giveBackReservation(store.usage, record, logger);
  await deps.tell(record, endedNotice(record, copy.interruptedTooOften, logger, 'job given up on cannot be read'));
}
