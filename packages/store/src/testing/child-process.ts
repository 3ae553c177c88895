import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs open-store-child.ts in its own process: what a second genbot process does to the database. */
export async function openInAnotherProcess(url: string, jobId: string): Promise<void> {
  const script = new URL('./open-store-child.ts', import.meta.url).pathname;
  await run(process.execPath, ['--import', 'tsx', script, url, jobId], { timeout: 60_000 });
}

export interface ReservingProcess {
  /** Settles once the process has opened the store and waits to be let go. */
  readonly ready: Promise<void>;
  /** Lets it reserve; how many images it got. */
  go(): Promise<number>;
}

/**
 * Starts reserve-images-child.ts in its own process. Starting a process takes
 * far longer than reserving, so the test lets every process go only once all
 * are ready: their reservations then really run at the same time.
 */
export function startReservingProcess(
  url: string,
  at: Date,
  limit: number,
  jobIds: readonly string[],
): ReservingProcess {
  const script = new URL('./reserve-images-child.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script, url, at.toISOString(), String(limit), ...jobIds], {
    stdio: ['pipe', 'pipe', 'inherit'],
    timeout: 60_000,
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done === true) throw new Error(`reserve-images-child.ts exited early (${String((await exited)[0])})`);
    return line.value;
  };
  return {
    ready: nextLine().then((line) => {
      if (line !== 'ready') throw new Error(`reserve-images-child.ts said ${line}`);
    }),
    async go() {
      child.stdin.end('go\n');
      const reserved = Number(await nextLine());
      const [code] = await exited;
      if (code !== 0) throw new Error(`reserve-images-child.ts exited with ${String(code)}`);
      return reserved;
    },
  };
}
