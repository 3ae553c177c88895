import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveOnFreePort } from './on-free-port.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

export const REDIS_INSTALL_HINT = 'apt-get install redis-server';

/** How a deployment runs Redis for a job queue (compose.yaml too): an append-only file, so a restart keeps the jobs. */
export const REDIS_APPEND_ONLY_ARGS = ['--appendonly', 'yes'] as const;

/** Debian's redis-server, or REDIS_SERVER when set; undefined when there is none. */
export function findRedisServer(): string | undefined {
  const candidates =
    process.env.REDIS_SERVER !== undefined
      ? [process.env.REDIS_SERVER]
      : ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];
  return candidates.find((path) => existsSync(path));
}

export interface RedisOptions {
  /**
   * Default false: nothing is written to disk, so a stop loses every key, as a
   * Redis without persistence does. True keeps an append-only file in the
   * temporary directory, so data survives stop/start.
   */
  persist?: boolean;
  startTimeoutMs?: number;
}

/** A throwaway Redis on loopback, without a password. */
export interface RedisServer {
  readonly port: number;
  /** The temporary directory Redis runs in (and, with `persist`, writes to). */
  readonly directory: string;
  /** `redis://127.0.0.1:PORT` */
  readonly url: string;
  /** Stops the server, as when Redis goes away under a running bot. */
  stop(): Promise<void>;
  /** Starts it again on the same port (and data, with `persist`). */
  start(): Promise<void>;
  /** Stops it and deletes its directory. */
  close(): Promise<void>;
}

/** redis-server on a free loopback port, in a fresh temporary directory. */
export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const command = findRedisServer();
  if (command === undefined) throw new Error(`Redis is not installed (${REDIS_INSTALL_HINT})`);
  const root = await mkdtemp(join(tmpdir(), 'genbot-redis-'));
  const persistence = options.persist === true ? REDIS_APPEND_ONLY_ARGS : ['--appendonly', 'no', '--save', ''];
  const launch = (port: number): Promise<ServerProcess> =>
    startServerProcess({
      name: 'Redis',
      command,
      args: [
        // No config file: every setting is given here, so the Debian defaults in /etc do not apply.
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        root,
        '--daemonize',
        'no',
        '--logfile',
        '',
        ...persistence,
      ],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      readyLine: /Ready to accept connections/,
      startTimeoutMs: options.startTimeoutMs ?? 15_000,
    });

  const served = await serveOnFreePort({
    directory: root,
    launch,
    portTaken: /Address already in use/,
    signals: { stop: 'SIGTERM', close: 'SIGTERM' },
  });
  return { ...served, directory: root, url: `redis://127.0.0.1:${served.port}` };
}
