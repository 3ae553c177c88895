import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../apps/genbot/bin/genbot.js', import.meta.url));

/** Variables that would change what `genbot start` does: tests start from none of them. */
const CONFIG_VARIABLE = /^(GENAI_|SLACK_|DISCORD_|CHAT_MODEL|IMAGE_MODEL|TEXT_MODEL|PLAYGROUND_PORT|LOG_LEVEL)/;

export interface GenbotProcess {
  readonly child: ChildProcess;
  /** When the process was spawned (ms since the epoch). */
  readonly startedAt: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line matching `pattern`; rejects on timeout or exit. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs` if still running. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `node apps/genbot/bin/genbot.js ARGS` from the repository root with a clean configuration. */
export function spawnGenbot(args: readonly string[], env: Record<string, string> = {}): GenbotProcess {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLE.test(name)));
  const startedAt = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...base, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    startedAt,
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
            reject(new Error(`genbot exited before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err.slice(-4000)}`));
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err.slice(-4000)}`));
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

/** Starts `genbot start` with no token and resolves with the playground address it printed. */
export async function startPlaygroundProcess(env: Record<string, string> = {}): Promise<{ genbot: GenbotProcess; url: string; startupMs: number }> {
  const genbot = spawnGenbot(['start'], { PLAYGROUND_PORT: '0', ...env });
  try {
    const match = await genbot.waitForLine(/^Playground: (http:\/\/\S+)$/, 30_000);
    return { genbot, url: match[1] as string, startupMs: Date.now() - genbot.startedAt };
  } catch (err) {
    await genbot.stop(2000);
    throw err;
  }
}

/** Follows the playground's live feed and keeps the latest state, until the server ends it. */
export function followFeed<T>(url: string): { latest(): T | undefined; ended: Promise<void>; close(): void } {
  const controller = new AbortController();
  let latest: T | undefined;
  const ended = (async () => {
    const response = await fetch(new URL('api/events', url), { signal: controller.signal });
    if (!response.ok || response.body === null) throw new Error(`feed answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (data !== '') latest = JSON.parse(data) as T;
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) {
        // The server closing the connection mid-read ends the feed as well.
        if (!(err instanceof Error && /terminated|aborted|other side closed/i.test(err.message))) throw err;
      }
    }
  })();
  return { latest: () => latest, ended, close: () => controller.abort() };
}
