import { type ChildProcess, spawn } from 'node:child_process';
import type { SystemUser } from './system-user.js';

export interface ServerProcessOptions {
  /** For messages: "PostgreSQL", "Redis", … */
  name: string;
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Run as this user (needs root); absent: as this process's user. */
  user?: SystemUser | undefined;
  /** A line on stdout or stderr that says the server accepts connections. */
  readyLine: RegExp;
  /** How long to wait for that line. */
  startTimeoutMs?: number;
}

export interface ServerProcess {
  readonly pid: number;
  /** Everything the server printed so far (the tail of it, to explain a failure). */
  output(): string;
  /** Sends `signal` and resolves once the process has exited; SIGKILL after `timeoutMs`. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<void>;
}

const OUTPUT_KEPT = 16_384;

/** Runs a command to completion (initdb, a client), rejecting with its output when it fails. */
export function runToCompletion(
  name: string,
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; user?: SystemUser | undefined } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, spawnOptions(options));
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('error', (error) => reject(new Error(`${name}: could not run ${command}: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${name}: ${command} exited with ${code ?? signal}:\n${output}`));
    });
  });
}

/** Starts a long-running server and resolves once it printed its ready line. */
export function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child = spawn(options.command, options.args, spawnOptions(options));
  let output = '';
  let buffered = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  return new Promise<ServerProcess>((resolve, reject) => {
    let settled = false;
    const fail = (reason: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${options.name} did not start: ${reason}\n${output}`));
    };
    const timeoutMs = options.startTimeoutMs ?? 30_000;
    const timer = setTimeout(() => fail(`no "${options.readyLine.source}" within ${timeoutMs} ms`), timeoutMs);
    const watch = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-OUTPUT_KEPT);
      if (settled) return;
      buffered += text;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      if (!lines.some((line) => options.readyLine.test(line))) return;
      settled = true;
      clearTimeout(timer);
      resolve(serverProcess(child, exited, () => output));
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`it exited with ${code ?? signal}`));
  });
}

function serverProcess(child: ChildProcess, exited: Promise<void>, output: () => string): ServerProcess {
  return {
    pid: child.pid ?? -1,
    output,
    async stop(signal = 'SIGTERM', timeoutMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        await exited;
      } finally {
        clearTimeout(killer);
      }
    },
  };
}

function spawnOptions(options: { env?: NodeJS.ProcessEnv; user?: SystemUser | undefined }) {
  return {
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
    // libuv drops root's supplementary groups along with the uid.
    ...(options.user === undefined ? {} : { uid: options.user.uid, gid: options.user.gid }),
  };
}
