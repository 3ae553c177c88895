import { StoreUnavailableError } from '@genbot/core/store';
import type { DatabaseTarget } from './database-url.js';

/**
 * Turns a driver error that means "the database cannot serve us" into a
 * StoreUnavailableError naming DATABASE_URL; undefined for anything else
 * (a constraint or a bug in a query), which callers rethrow as it is.
 */
export function unavailableError(error: unknown, target: DatabaseTarget): StoreUnavailableError | undefined {
  return target.dialect === 'sqlite' ? sqliteUnavailable(error, target.display) : postgresUnavailable(error, target);
}

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  if ('code' in error && typeof error.code === 'string') return error.code;
  // A host with several addresses (localhost: ::1 and 127.0.0.1) fails with one error per address.
  return error instanceof AggregateError ? errorCode(error.errors[0]) : '';
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sqliteUnavailable(error: unknown, display: string): StoreUnavailableError | undefined {
  const code = errorCode(error);
  const because = `(${code}: ${errorText(error)})`;
  const fail = (message: string, retryable: boolean) =>
    new StoreUnavailableError(`DATABASE_URL: ${display} ${message} ${because}`, { retryable, cause: error });
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return fail(
      'is not a SQLite database, or it is damaged: move it away to start with an empty one, or point DATABASE_URL at another file',
      false,
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code.startsWith('SQLITE_CANTOPEN')) {
    return fail(
      'cannot be opened for writing: check the permissions of the file and its directory, or point DATABASE_URL at another file',
      false,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return fail('stayed locked by another process past the busy timeout', true);
  }
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) {
    return fail('cannot be written: the disk is full or failing', false);
  }
  return undefined;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** pg's own words for a connection that died or never came up (these carry no code). */
const CONNECTION_LOST =
  /Connection terminated|connection timeout|timeout expired|Client has encountered a connection error/i;

function postgresUnavailable(
  error: unknown,
  target: Extract<DatabaseTarget, { dialect: 'postgres' }>,
): StoreUnavailableError | undefined {
  const code = errorCode(error);
  const detail = code === '' ? errorText(error) : `${code}: ${errorText(error)}`;
  const at = `PostgreSQL at ${target.display}`;
  if (UNREACHABLE.has(code) || CONNECTION_LOST.test(errorText(error))) {
    return new StoreUnavailableError(`DATABASE_URL: ${at} cannot be reached (${detail}): is it running?`, {
      retryable: true,
      cause: error,
    });
  }
  // invalid_authorization_specification, invalid_password
  if (code === '28000' || code === '28P01') {
    return new StoreUnavailableError(`DATABASE_URL: ${at} refused the connection (${detail})`, {
      retryable: false,
      cause: error,
    });
  }
  // invalid_catalog_name
  if (code === '3D000') {
    return new StoreUnavailableError(`DATABASE_URL: ${at}: the database does not exist (${detail}); create it first`, {
      retryable: false,
      cause: error,
    });
  }
  // disk_full, insufficient_resources, read_only_sql_transaction
  if (code === '53100' || code === '53000' || code === '25006') {
    return new StoreUnavailableError(`DATABASE_URL: ${at} cannot be written (${detail})`, {
      retryable: false,
      cause: error,
    });
  }
  return undefined;
}
