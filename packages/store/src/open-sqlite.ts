import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { type Dialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { DatabaseTarget } from './database-url.js';

/** How long a statement waits for another process's write lock before failing with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** Between tries of the opening steps that SQLite refuses at once instead of waiting (see `untilNotBusy`). */
const OPEN_RETRY_MS = 25;

/**
 * Opens (creating it and its directory on first start) the SQLite file. WAL
 * lets readers and one writer in two processes share it; NORMAL
 * synchronous is durable across a process crash, which is what a job needs.
 * SQLite falls back to reading a file it may not write, and opening writes
 * nothing: rewriting the schema header's user_version in a transaction that is
 * rolled back proves at once that the file can be written and is a database.
 * Errors are the driver's; the caller names DATABASE_URL.
 */
export async function openSqlite(target: Extract<DatabaseTarget, { dialect: 'sqlite' }>): Promise<Dialect> {
  if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
  const database = new BetterSqlite3(target.path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    await untilNotBusy(() => prepareFile(database), SQLITE_BUSY_TIMEOUT_MS);
  } catch (error) {
    database.close();
    throw error;
  }
  return new SqliteDialect({ database: withStatementCache(database) });
}

function prepareFile(database: BetterSqlite3.Database): void {
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  const version = Number(database.pragma('user_version', { simple: true }));
  database.exec('begin immediate');
  try {
    database.pragma(`user_version = ${version}`);
  } finally {
    database.exec('rollback');
  }
}

/**
 * Runs `step` again while SQLite answers SQLITE_BUSY, for up to `timeoutMs`.
 * The busy timeout makes a statement wait for another process's lock, but
 * switching a new file to WAL reads it and then needs its write lock, and
 * SQLite refuses that at once when another process holds it (waiting there
 * could deadlock): two processes starting together on a new file met it.
 */
async function untilNotBusy(step: () => void, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      step();
      return;
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw error;
    }
    await sleep(OPEN_RETRY_MS);
  }
}

const isBusy = (error: unknown): boolean =>
  error instanceof BetterSqlite3.SqliteError && error.code.startsWith('SQLITE_BUSY');

/** The store sends a few dozen distinct statements; Kysely's driver would prepare each anew every time. */
const CACHED_STATEMENTS = 256;

function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        if (statements.size >= CACHED_STATEMENTS) statements.delete(statements.keys().next().value ?? '');
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
