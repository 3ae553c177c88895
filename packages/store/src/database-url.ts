import { resolve } from 'node:path';
import { DatabaseUrlError } from './database-url-error.js';

export const DEFAULT_SQLITE_PATH = './data/genbot.db';

/**
 * Where the store lives. `display` names it in messages and logs without a
 * password or query parameters.
 */
export type DatabaseTarget =
  | { dialect: 'sqlite'; path: string; display: string }
  | { dialect: 'postgres'; connectionString: string; display: string };

const USAGE = 'sqlite:PATH, postgres://… or postgresql://…';

/** DATABASE_URL -> a target; unset or empty is the embedded SQLite file. */
export function parseDatabaseUrl(value: string | undefined): DatabaseTarget {
  const url = value?.trim() ?? '';
  if (url === '') return sqliteTarget(DEFAULT_SQLITE_PATH);
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '') throw new DatabaseUrlError(`DATABASE_URL "sqlite:" names no file: use sqlite:PATH`);
    return sqliteTarget(path);
  }
  if (/^postgres(ql)?:\/\//i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new DatabaseUrlError(`DATABASE_URL is not a valid URL (${redactUrl(url)}): expected ${USAGE}`);
    }
    return { dialect: 'postgres', connectionString: url, display: postgresDisplay(parsed) };
  }
  throw new DatabaseUrlError(`DATABASE_URL must be ${USAGE}, got "${redactUrl(url)}"`);
}

function sqliteTarget(path: string): DatabaseTarget {
  return path === ':memory:'
    ? { dialect: 'sqlite', path, display: 'sqlite::memory:' }
    : { dialect: 'sqlite', path: resolve(path), display: `sqlite:${resolve(path)}` };
}

function postgresDisplay(url: URL): string {
  const user = url.username === '' ? '' : `${decodeURIComponent(url.username)}@`;
  return `${url.protocol}//${user}${url.host}${url.pathname}`;
}

/** Hides the password of a URL, parsed or not: `//user:secret@` becomes `//user:***@`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.href;
  } catch {
    // Up to the last `@`: an unparsable URL may hold one unencoded in its password.
    return url.replace(/\/\/([^/@:]*):.*@/, '//$1:***@');
  }
}
