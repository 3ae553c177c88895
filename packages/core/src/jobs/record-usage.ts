import type { ChatLogger } from '../surface/ports.js';
import type { UsageLedger } from '../store/index.js';
import type { ChatJob } from './chat-job.js';
import type { StoredCall } from './until-stored.js';
import type { MeteredUsage } from './usage-meter.js';

/** Records what a job's model calls used, for its user's quotas; a job that used nothing leaves no entry. */
export async function recordUsage(
  job: ChatJob,
  usage: MeteredUsage,
  deps: { usage: Pick<UsageLedger, 'record'>; stored: StoredCall; logger: ChatLogger },
): Promise<void> {
  if (usage.images === 0 && usage.inputTokens === 0 && usage.outputTokens === 0) return;
  const entry = { jobId: job.id, platform: job.platform, workspaceId: job.workspaceId, userId: job.userId, ...usage };
  try {
    await deps.stored('record the usage', () => deps.usage.record(entry));
  } catch (error) {
    deps.logger.error({ err: error, jobId: job.id }, 'could not record the usage of a job');
  }
}
