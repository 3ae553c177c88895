import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs open-store-child.ts in its own process: what a second genbot process does to the database. */
export async function openInAnotherProcess(url: string, jobId: string): Promise<void> {
  const script = new URL('./open-store-child.ts', import.meta.url).pathname;
  await run(process.execPath, ['--import', 'tsx', script, url, jobId], { timeout: 60_000 });
}
