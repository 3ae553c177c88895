/** The CLI as users run it, a subprocess, for the tests that drive it over real HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/genbot.js', import.meta.url));

export interface GenbotRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** When each stdout chunk arrived, in ms since the start, to see streaming happen. */
  stdoutTimes: number[];
}

export interface GenbotRunOptions {
  /** Added to a clean environment (none of the parent's GENAI_*, *_MODEL, LOG_LEVEL or INIT_CWD). */
  env: NodeJS.ProcessEnv;
  onStart?: (child: ChildProcess) => void;
}

/** The parent's environment minus anything that would steer the child (the test runner may set GENAI_*). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(GENAI_|CHAT_MODEL|IMAGE_MODEL|TEXT_MODEL|LOG_LEVEL|INIT_CWD)/.test(name)) env[name] = value;
  }
  return env;
}

/**
 * Runs `genbot ARGS` to its end. The child runs in another directory on
 * purpose: paths must resolve against INIT_CWD, as under `pnpm genbot`.
 */
export function runGenbot(args: readonly string[], options: GenbotRunOptions): Promise<GenbotRun> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: tmpdir(),
    env: { ...cleanEnv(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onStart?.(child);
  const started = Date.now();
  const run: GenbotRun = { code: null, stdout: '', stderr: '', stdoutTimes: [] };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    run.stdout += chunk;
    run.stdoutTimes.push(Date.now() - started);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    run.stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      run.code = code;
      resolve(run);
    });
  });
}
