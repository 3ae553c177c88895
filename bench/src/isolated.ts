import { forkBenchChild } from './child-process.js';

/**
 * Runs `module[exportName](input)` in a fresh process, so each measured batch
 * starts from the same heap, JIT and connection state whichever contender ran
 * before it, and process-wide numbers (CPU, RSS) belong to that batch alone.
 * The child has `gc()` so a batch can settle its heap before measuring.
 */
export async function runIsolated<Output>(moduleUrl: string, exportName: string, input: unknown): Promise<Output> {
  const child = forkBenchChild(
    new URL('./batch-process.ts', import.meta.url),
    [moduleUrl, exportName, JSON.stringify(input)],
    ['--expose-gc'],
  );
  return (await child.message) as Output;
}
