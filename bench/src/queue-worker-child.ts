/**
 * Child entry for the queue benchmark: one worker process taking image jobs
 * from BullMQ and making the real image call to the emulator for each, as a
 * `pnpm worker` would. Tells the parent over IPC when it listens and when each
 * job is done.
 */
import { JOB_LANES } from '@genbot/core/scheduling';
import { GenAiClient } from '@genbot/core/genai';
import { createLogger } from '@genbot/core/log';
import { BullJobQueue } from '@genbot/queue';

const [redisUrl = '', emulatorUrl = '', apiKey = '', model = '', prompt = '', concurrency = '1'] =
  process.argv.slice(2);
const logger = createLogger({ level: 'warn', name: 'queue-worker' });
const client = new GenAiClient({ baseUrl: emulatorUrl, apiKey, logger });
const queue = new BullJobQueue({ url: redisUrl, platforms: ['slack'], logger });

queue.process(
  async ({ job, signal }) => {
    await client.generateImages(model, { prompt }, { signal });
    process.send?.({ done: job.id });
  },
  { concurrency: { image: Number(concurrency), stream: 1 }, platforms: ['slack'] },
);
// BullMQ workers connect on their own; a first queue call tells when Redis answers.
await queue.position('warm-up');
process.send?.({ ready: JOB_LANES.length });
process.once('disconnect', () => void Promise.all([queue.close(), client.close()]).finally(() => process.exit(0)));
