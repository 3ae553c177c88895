import { copy } from '../copy/copy.js';
import type { ChatLogger } from '../surface/ports.js';
import type { JobRecord, Platform } from '../store/index.js';
import type { SurfaceFactory } from './chat-job.js';
import { askedIn, jobOfRecord, parseChatJob } from './parse-chat-job.js';

/**
 * A short message in a job's place, for a job that cannot run (unreadable,
 * too old to resume, given up on), built from its record alone; logged when
 * even that fails. A job of a platform this process has no surface for is left.
 */
export async function tellJobOwner(
  surfaces: ReadonlyMap<Platform, SurfaceFactory>,
  record: JobRecord,
  text: string,
  logger: ChatLogger,
): Promise<void> {
  const factory = surfaces.get(record.platform);
  if (factory === undefined) return;
  const target = { channelId: record.channelId, threadId: record.threadId };
  // Only its place and interaction matter to the surface: the input is a stand-in.
  const job = jobOfRecord(record, { kind: 'imagine', imagine: { target, prompt: '', userId: record.userId } });
  try {
    const surface = factory.surfaceFor(job, record.steps);
    await surface.post(target, text.slice(0, surface.limits.maxMessageChars));
  } catch (error) {
    logger.error({ err: error, jobId: record.id }, 'could not tell the user about a job');
  }
}

/** What a job ended without running says, quoting what was asked when its record can be read. */
export function endedNotice(
  record: JobRecord,
  text: (asked: string) => string,
  logger: ChatLogger,
  unreadable: string,
): string {
  try {
    return text(askedIn(parseChatJob(record)));
  } catch (error) {
    logger.warn({ err: error, jobId: record.id }, unreadable);
    return copy.unreadableJob;
  }
}
