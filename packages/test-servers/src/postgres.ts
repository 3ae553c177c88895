import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveOnFreePort } from './on-free-port.js';
import { runToCompletion, type ServerProcess, startServerProcess } from './server-process.js';
import { unprivilegedUser } from './system-user.js';

export const POSTGRES_INSTALL_HINT = 'apt-get install postgresql';

/**
 * The directory holding Debian's `initdb` and `postgres` (the newest of
 * /usr/lib/postgresql/N/bin), or POSTGRES_BIN when set; undefined when there is none.
 */
export function findPostgresBin(): string | undefined {
  const candidates =
    process.env.POSTGRES_BIN !== undefined
      ? [process.env.POSTGRES_BIN]
      : debianVersions().map((version) => `/usr/lib/postgresql/${version}/bin`);
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
}

function debianVersions(): string[] {
  try {
    return readdirSync('/usr/lib/postgresql')
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

export interface PostgresOptions {
  /** Default false: a throwaway cluster needs no durability. The bench turns it on to measure a real server. */
  fsync?: boolean;
  startTimeoutMs?: number;
}

/** A throwaway PostgreSQL cluster on loopback, trusting user `postgres` without a password. */
export interface PostgresServer {
  readonly port: number;
  /** The temporary directory holding the cluster. */
  readonly directory: string;
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  readonly url: string;
  /** The URL of another database on this server (create it first). */
  urlOf(database: string): string;
  /** Stops the server, keeping its data, as when PostgreSQL goes away under a running bot. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its directory. */
  close(): Promise<void>;
}

/**
 * initdb in a fresh temporary directory and a server on a free loopback port.
 * PostgreSQL refuses to run as root, so as root both run as the `postgres`
 * user, which owns the directory.
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(`PostgreSQL is not installed (${POSTGRES_INSTALL_HINT})`);
  const user = unprivilegedUser('postgres');
  const root = await mkdtemp(join(tmpdir(), 'genbot-postgres-'));
  const dataDir = join(root, 'data');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };
  try {
    if (user !== undefined) await chown(root, user.uid, user.gid);
    await runToCompletion(
      'PostgreSQL',
      join(bin, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      { env, user },
    );
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const launch = (port: number): Promise<ServerProcess> =>
    startServerProcess({
      name: 'PostgreSQL',
      command: join(bin, 'postgres'),
      args: [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-h',
        '127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        `fsync=${options.fsync === true ? 'on' : 'off'}`,
        '-c',
        `synchronous_commit=${options.fsync === true ? 'on' : 'off'}`,
        '-c',
        `full_page_writes=${options.fsync === true ? 'on' : 'off'}`,
        '-c',
        'lc_messages=C',
      ],
      env,
      user,
      readyLine: /database system is ready to accept connections/,
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
    });

  const served = await serveOnFreePort({
    directory: root,
    launch,
    portTaken: /could not bind|Address already in use/,
    // SIGINT is PostgreSQL's fast shutdown: clients are disconnected at once.
    signals: { stop: 'SIGINT', close: 'SIGINT' },
  });
  const urlOf = (database: string): string =>
    `postgres://postgres@127.0.0.1:${served.port}/${encodeURIComponent(database)}`;
  return { ...served, directory: root, url: urlOf('postgres'), urlOf };
}
