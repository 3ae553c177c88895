import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../../packages/emulator/src/main.ts', import.meta.url));

export interface EmulatorProcess {
  url: string;
  close(): Promise<void>;
}

/**
 * The emulator in a process of its own, so that what a test measures of the
 * bot's process (its event loop above all) is the bot's work, not the
 * emulator making and sending megabytes of reply.
 */
export async function startEmulatorProcess(apiKey: string): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--api-key', apiKey], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = /^(http:\/\/\S+)\n/m.exec(out);
      if (line?.[1] !== undefined) resolve(line[1]);
    });
    void exited.then(() => reject(new Error('the emulator process exited before it listened')));
  });
  return {
    url,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
