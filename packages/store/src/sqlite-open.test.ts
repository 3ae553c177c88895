import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { StoreUnavailableError } from '@genbot/core/store';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { newJob } from './testing/fixtures.js';

const run = promisify(execFile);

let directory: string;
const immutable: string[] = [];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'genbot-sqlite-'));
});

afterEach(async () => {
  for (const path of immutable.splice(0)) await run('chattr', ['-i', path]);
  await rm(directory, { recursive: true, force: true });
});

/** Root writes through file modes, so as root the file is made immutable as well. */
async function makeReadOnly(path: string): Promise<void> {
  await chmod(path, 0o444);
  if (process.getuid?.() === 0) {
    await run('chattr', ['+i', path]);
    immutable.push(path);
  }
}

async function createdStore(path: string): Promise<void> {
  const store = await openStore(`sqlite:${path}`);
  await store.jobs.record(newJob('kept'));
  await store.close();
}

describe('SQLite file', () => {
  it('is created with its directory on first start, in WAL mode', async () => {
    const path = join(directory, 'nested', 'data', 'genbot.db');
    await createdStore(path);
    const database = new BetterSqlite3(path, { readonly: true });
    try {
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(database.prepare('select id from jobs').all()).toEqual([{ id: 'kept' }]);
    } finally {
      database.close();
    }
  });

  it('is ./data/genbot.db under the working directory when DATABASE_URL is unset', async () => {
    const previous = process.cwd();
    process.chdir(directory);
    try {
      const store = await openStore(undefined);
      expect(store.display).toBe(`sqlite:${join(directory, 'data', 'genbot.db')}`);
      await store.close();
    } finally {
      process.chdir(previous);
    }
    expect(existsSync(join(directory, 'data', 'genbot.db'))).toBe(true);
  });

  it('can live in memory for as long as the process, leaving no file behind', async () => {
    const previous = process.cwd();
    process.chdir(directory);
    try {
      const store = await openStore('sqlite::memory:');
      expect((await store.jobs.record(newJob('in-memory'))).created).toBe(true);
      expect((await store.jobs.get('in-memory'))?.id).toBe('in-memory');
      await store.close();
    } finally {
      process.chdir(previous);
    }
    expect(await readdir(directory)).toEqual([]);
  });

  it('that is not a database is refused with a message naming DATABASE_URL', async () => {
    const path = join(directory, 'notes.db');
    await writeFile(path, 'these are my notes, not a database\n'.repeat(200));
    const opening = openStore(`sqlite:${path}`);
    await expect(opening).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(opening).rejects.toThrow(
      `DATABASE_URL: sqlite:${path} is not a SQLite database, or it is damaged: move it away to start with an empty one, or point DATABASE_URL at another file (SQLITE_NOTADB: file is not a database)`,
    );
    await expect(opening).rejects.toMatchObject({ retryable: false });
  });

  it('that was cut short is refused as damaged', async () => {
    const path = join(directory, 'cut.db');
    await createdStore(path);
    await truncate(path, 1000);
    await expect(openStore(`sqlite:${path}`)).rejects.toThrow(
      /^DATABASE_URL: sqlite:.*cut\.db is not a SQLite database, or it is damaged/,
    );
  });

  it('that cannot be written is refused at start, not at the first job', async () => {
    const path = join(directory, 'read-only.db');
    await createdStore(path);
    await makeReadOnly(path);
    const opening = openStore(`sqlite:${path}`);
    await expect(opening).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(opening).rejects.toThrow(
      new RegExp(
        `^DATABASE_URL: sqlite:${path} cannot be opened for writing: check the permissions of the file and its directory`,
      ),
    );
  });

  it('being written by another process on first start is opened, in WAL mode, once that write is done', async () => {
    const path = join(directory, 'new.db');
    // Another connection keeps the write lock of a file not yet in WAL mode, as a second process would.
    const holder = new BetterSqlite3(path);
    holder.exec('create table made_first (x)');
    holder.exec('begin immediate');
    holder.exec('insert into made_first values (1)');
    let settled = false;
    const opening = openStore(`sqlite:${path}`).finally(() => {
      settled = true;
    });
    // Switching to WAL needs that lock, and SQLite refuses it at once rather than wait.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    holder.exec('commit');
    holder.close();
    const store = await opening;
    try {
      expect((await store.jobs.record(newJob('after-the-lock'))).created).toBe(true);
    } finally {
      await store.close();
    }
    const database = new BetterSqlite3(path, { readonly: true });
    try {
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      database.close();
    }
  });

  it('is shared with another process: a write waits for its lock instead of failing', async () => {
    const path = join(directory, 'shared.db');
    const store = await openStore(`sqlite:${path}`);
    try {
      // Another process takes the write lock and keeps it for a moment.
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const db = new (require('better-sqlite3'))(${JSON.stringify(path)});
           db.exec('begin immediate'); console.log('locked');
           setTimeout(() => { db.exec('commit'); db.close(); }, 300);`,
        ],
        { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      const started = performance.now();
      expect((await store.jobs.record(newJob('after-the-lock'))).created).toBe(true);
      expect(performance.now() - started).toBeGreaterThan(100);
      await new Promise((resolve) => holder.once('exit', resolve));
    } finally {
      await store.close();
    }
  });
});
