import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** genbot's command line, as the image's ENTRYPOINT runs it (GENBOT_ENTRY in ./topology.ts). */
export const BIN = fileURLToPath(new URL('../../../../apps/genbot/bin/genbot.js', import.meta.url));

/** Where genbot runs unless told otherwise: an empty folder, so no `.env` steers it. */
export const EMPTY_DIR = mkdtempSync(path.join(tmpdir(), 'genbot-process-'));

/**
 * Variables that would change what `genbot start` does: processes start from none of them. The
 * `npm_lifecycle_` ones would tell a bot that a package manager started it (as the `pnpm test`
 * or `pnpm bench` running them did), which changes how it counts repeated signals.
 */
const CONFIG_VARIABLE =
  /^(npm_lifecycle_|GENAI_|SLACK_|DISCORD_|CHAT_MODEL|IMAGE_MODEL|TEXT_MODEL|PLAYGROUND_PORT|LOG_LEVEL|DATABASE_URL|REDIS_URL|QUOTA_|HEALTH_PORT)/;

export interface GenbotProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line matching `pattern`; rejects on timeout or exit. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs` if still running. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  /** The working directory, where genbot looks for `.env`; default an empty folder. */
  cwd?: string;
  /** Options for node itself, before the script (`--import`, `--cpu-prof`). */
  nodeArgs?: readonly string[];
}

/** The parent's environment without anything that would change what genbot does. */
export function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLE.test(name)));
}

/** Runs `node apps/genbot/bin/genbot.js ARGS` with a clean configuration and the given settings. */
export function spawnGenbot(
  args: readonly string[],
  env: Record<string, string> = {},
  options: SpawnOptions = {},
): GenbotProcess {
  return follow(
    spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      cwd: options.cwd ?? EMPTY_DIR,
      env: { ...cleanEnv(), LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}
/** Follows a started process: its output, the lines it prints, its exit. */
export function follow(child: ChildProcess): GenbotProcess {
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const listener of [...listeners]) listener();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const listener of [...listeners]) listener();
      resolve({ code, signal });
    });
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });

  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForLine(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (const line of out.split('\n')) {
            const match = pattern.exec(line);
            if (match) {
              finish();
              resolve(match);
              return;
            }
          }
          if (done) {
            finish();
            reject(
              new Error(`genbot exited before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err.slice(-4000)}`),
            );
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(
            new Error(
              `no line matching ${pattern} within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err.slice(-4000)}`,
            ),
          );
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop(graceMs = 30_000) {
      if (!done) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
