import { setTimeout as sleep } from 'node:timers/promises';

export interface BatchCost<T> {
  results: T[];
  wallMs: number;
  /** User plus system CPU of the whole process during the batch. */
  cpuMs: number;
  /** Highest resident set size seen during the batch, above what it was when the batch started. */
  peakRssGrowthMiB: number;
  /**
   * That highest resident set size itself. Growth alone favours a process that
   * keeps what it freed before the batch (in its allocator's free lists, still
   * resident) over one that gave it back to the system and takes it again.
   */
  peakRssMiB: number;
}

const RSS_SAMPLE_MS = 5;
const MIB = 1024 * 1024;

/** Runs `count` tasks, at most `concurrency` at a time; results in task order. */
export async function runConcurrently<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < count; index = next++) results[index] = await task(index);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** Measures a batch of tasks from a settled heap (when the process has `gc()`). */
export async function measureBatch<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<BatchCost<T>> {
  globalThis.gc?.();
  // Let finalisers and freed pages go before the baseline is read.
  await sleep(50);
  const baseRss = process.memoryUsage.rss();
  let peakRss = baseRss;
  const sample = (): void => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  };
  // The timer runs late while the loop is busy; sampling after every task covers that.
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  try {
    const results = await runConcurrently(count, concurrency, async (index) => {
      const result = await task(index);
      sample();
      return result;
    });
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuStart);
    sample();
    return {
      results,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRssGrowthMiB: (peakRss - baseRss) / MIB,
      peakRssMiB: peakRss / MIB,
    };
  } finally {
    clearInterval(sampler);
  }
}
