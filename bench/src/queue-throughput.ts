/**
 * Issue 17: image-job throughput with 1, 2 and 4 worker processes taking jobs
 * from BullMQ on a real Redis. Each job makes the real image call to the
 * emulator, which holds every answer for a fixed time (`[fault:slow=MS]`),
 * so the work waits on the service as in production and more workers should
 * mean proportionally more jobs a second. The baseline of the 2- and
 * 4-worker rows is the 1-worker time divided by the worker count (linear).
 * The handler is the model call alone: the worker's store and platform
 * wiring is measured end to end once it is on main.
 */
import type { ChildProcess } from 'node:child_process';
import { createLogger } from '@genbot/core/log';
import { BullJobQueue } from '@genbot/queue';
import { findRedisServer, REDIS_INSTALL_HINT, startRedis } from '@genbot/test-servers';
import { IMAGE_MODEL } from './chat-rig.js';
import { forkBenchChild } from './child-process.js';
import { boundedRow, row, type Benchmark, type BenchContext, type Row } from './suite.js';

const SERVICE_DELAY_MS = 500;
/** Image calls a worker process runs at once. */
const WORKER_CONCURRENCY = 2;
const JOBS = 48;
const WORKER_COUNTS = [1, 2, 4] as const;
/** The floors: 0.9x linear at 2 workers, 0.75x at 4, as bounds on time over linear time. */
const TARGETS: Record<number, number> = { 2: 1 / 0.9, 4: 1 / 0.75 };

interface Worker {
  child: ChildProcess;
  done: string[];
}

async function startWorker(context: BenchContext, redisUrl: string, onDone: () => void): Promise<Worker> {
  const { process: child, message } = forkBenchChild(new URL('./queue-worker-child.ts', import.meta.url), [
    redisUrl,
    context.emulatorUrl,
    context.apiKey,
    IMAGE_MODEL,
    `a lighthouse at dawn [fault:slow=${SERVICE_DELAY_MS}]`,
    String(WORKER_CONCURRENCY),
  ]);
  const worker: Worker = { child, done: [] };
  child.on('message', (value: unknown) => {
    if (typeof value === 'object' && value !== null && 'done' in value && typeof value.done === 'string') {
      worker.done.push(value.done);
      onDone();
    }
  });
  await message;
  return worker;
}

/** Seconds from the first add until every job is done, and how many were done more than once. */
async function runJobs(context: BenchContext, redisUrl: string, workerCount: number, round: string) {
  let finished = 0;
  let allDone = (): void => undefined;
  const everyJobDone = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const onDone = (): void => {
    finished += 1;
    if (finished === JOBS) allDone();
  };
  const workers = await Promise.all(Array.from({ length: workerCount }, () => startWorker(context, redisUrl, onDone)));
  const producer = new BullJobQueue({ url: redisUrl, platforms: ['slack'], logger: createLogger({ level: 'warn' }) });
  try {
    const started = performance.now();
    for (let i = 0; i < JOBS; i++) {
      await producer.add({ id: `bench-${round}-${i}`, lane: 'image', platform: 'slack', userId: `U${i % 7}` });
    }
    await everyJobDone;
    const seconds = (performance.now() - started) / 1000;
    const ids = workers.flatMap((worker) => worker.done);
    return { seconds, duplicates: ids.length - new Set(ids).size, perWorker: workers.map((w) => w.done.length) };
  } finally {
    await producer.close();
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.child.once('exit', () => resolve());
            worker.child.disconnect();
          }),
      ),
    );
  }
}

export const queueThroughput: Benchmark = {
  name: 'queue throughput (BullMQ workers)',
  async run(context) {
    if (findRedisServer() === undefined) {
      process.stderr.write(`bench: Redis is not installed, the queue rows are left out (${REDIS_INSTALL_HINT})\n`);
      return [];
    }
    const redis = await startRedis();
    try {
      const seconds: Record<number, number> = {};
      let duplicates = 0;
      for (const count of WORKER_COUNTS) {
        const result = await runJobs(context, redis.url, count, `w${count}`);
        seconds[count] = result.seconds;
        duplicates += result.duplicates;
        process.stderr.write(
          `bench: ${count} worker(s): ${result.seconds.toFixed(2)} s, jobs per worker ${result.perWorker.join('/')}\n`,
        );
      }
      const one = seconds[1] ?? Number.NaN;
      const ideal = (JOBS / WORKER_CONCURRENCY) * (SERVICE_DELAY_MS / 1000);
      const rows: Row[] = [
        boundedRow(`queue: ${JOBS} image jobs, 1 worker (vs the service's own time)`, 's', one, ideal),
        ...WORKER_COUNTS.filter((count) => count > 1).map((count) =>
          row(
            `queue: ${JOBS} image jobs, ${count} workers (vs linear)`,
            's',
            seconds[count] ?? Number.NaN,
            one / count,
            TARGETS[count],
          ),
        ),
        boundedRow('queue: jobs done twice, all runs', 'jobs', duplicates, 0, 0),
      ];
      return rows;
    } finally {
      await redis.close();
    }
  },
};
