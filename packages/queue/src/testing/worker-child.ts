/**
 * A worker process for the stalled-job test: takes jobs of `platform` from the
 * Redis at argv[2] with a short lock, prints `started ID ATTEMPT` for each and
 * never finishes one, so the test can kill it mid-job. Run with `node --import tsx`.
 */
import { createLogger } from '@genbot/core/log';
import { BullJobQueue } from '../bull-job-queue.js';

const [url, platform] = process.argv.slice(2);
if (url === undefined || platform === undefined) throw new Error('usage: worker-child.ts REDIS_URL PLATFORM');

const queue = new BullJobQueue({
  url,
  platforms: [platform],
  logger: createLogger({ level: 'silent' }),
  lockDurationMs: 1_000,
  stalledIntervalMs: 500,
});
queue.process(
  ({ job, attempt }) => {
    process.stdout.write(`started ${job.id} ${attempt}\n`);
    return new Promise<void>(() => undefined);
  },
  { concurrency: { image: 1, stream: 1 }, platforms: [platform] },
);
