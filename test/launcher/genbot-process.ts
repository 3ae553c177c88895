import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlaygroundSnapshot } from '@genbot/playground';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the scale-out topology runs too: the image's entry (test/scale/topology.ts, GENBOT_ENTRY). */
export const BIN = fileURLToPath(new URL('../../apps/genbot/bin/genbot.js', import.meta.url));

/** Where genbot runs unless a test says otherwise: an empty folder, so no `.env` steers it. */
export const EMPTY_DIR = mkdtempSync(path.join(tmpdir(), 'genbot-launcher-'));

/**
 * Variables that would change what `genbot start` does: tests start from none of them. The
 * `npm_lifecycle_` ones would tell a bot that a package manager started it (as the `pnpm test`
 * running these tests did), which changes how it counts repeated signals.
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
  /** Options for node itself, before the script (`--import`). */
  nodeArgs?: readonly string[];
}

/** The parent's environment without anything that would change what genbot does. */
export function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLE.test(name)));
}

/** Runs `node apps/genbot/bin/genbot.js ARGS` with a clean configuration. */
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

/** Starts `genbot start` with no token and resolves with the playground address it printed. */
export async function startPlaygroundProcess(
  env: Record<string, string> = {},
): Promise<{ genbot: GenbotProcess; url: string }> {
  const genbot = spawnGenbot(['start'], { PLAYGROUND_PORT: '0', ...env });
  try {
    const match = await genbot.waitForLine(/^Playground: (http:\/\/\S+)$/, 30_000);
    return { genbot, url: match[1] as string };
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
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
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

/** POSTs JSON and returns the JSON answer; rejects on an error status. */
export async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer: unknown = await response.json();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Polls `probe` until it returns a value, or rejects after `timeoutMs`. */
export async function until<T>(probe: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The text of the bot's replies to two mentions in the playground, one on each platform. */
export interface SlowReplies {
  slack(state: PlaygroundSnapshot | undefined): string | undefined;
  discord(state: PlaygroundSnapshot | undefined): string | undefined;
}

/** A reply of about 800 characters streamed over about 3 s: what a shutdown has to let finish. */
export const SLOW_PROMPT = 'tell me a long story [len:800] [delay:200]';

/** Mentions the bot on both emulated platforms with SLOW_PROMPT; resolves once both replies have started. */
export async function startSlowReplies(
  url: string,
  feed: { latest(): PlaygroundSnapshot | undefined },
): Promise<SlowReplies> {
  const slackPost = (await postJson(new URL('api/slack/messages', url).href, { text: `@genbot ${SLOW_PROMPT}` })) as {
    ts: string;
  };
  const discordPost = (await postJson(new URL('api/discord/messages', url).href, {
    content: `@genbot ${SLOW_PROMPT}`,
  })) as { id: string };
  const replies: SlowReplies = {
    slack: (state) =>
      state?.slack.messages.find((m) => m.isBot && m.threadTs === slackPost.ts && m.text.startsWith('You said'))?.text,
    discord: (state) =>
      state?.discord.messages.find(
        (m) => m.isBot && m.replyTo?.id === discordPost.id && m.content.startsWith('You said'),
      )?.content,
  };
  await until(() => replies.slack(feed.latest()) && replies.discord(feed.latest()), 20_000, 'both replies to start');
  return replies;
}

/** Both replies complete: the whole text, ending as the emulator ends it. */
export function repliesComplete(replies: SlowReplies, state: PlaygroundSnapshot | undefined): boolean {
  return [replies.slack(state), replies.discord(state)].every(
    (text) => text !== undefined && text.length >= 800 && text.endsWith('.'),
  );
}
