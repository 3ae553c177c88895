import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface BenchChild {
  process: ChildProcess;
  /** The first message the child sends over IPC. */
  message: Promise<unknown>;
}

/**
 * Forks a TypeScript entry with the same loader (tsx) as this process. The
 * promise rejects when the child exits before sending its message.
 */
export function forkBenchChild(entry: URL, args: string[], extraExecArgv: string[] = []): BenchChild {
  // Profiling flags stay with the process they were given to.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--cpu-prof') && !flag.startsWith('--heap-prof'));
  const child = fork(fileURLToPath(entry), args, {
    execArgv: [...execArgv, ...extraExecArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const message = new Promise<unknown>((resolve, reject) => {
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`${entry.pathname} exited (${signal ?? code}) before answering`)),
    );
  });
  return { process: child, message };
}
