import { type Dialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from './database-url.js';
import type { StoreLogger } from './store-options.js';

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A pool over DATABASE_URL (pg reads sslmode and the other usual
 * parameters). Connects once before returning, so a server that is down or
 * refuses us is reported at start, not at the first job.
 */
export async function openPostgres(
  target: Extract<DatabaseTarget, { dialect: 'postgres' }>,
  logger: StoreLogger | undefined,
): Promise<Dialect> {
  const pool = new pg.Pool({ connectionString: target.connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection that dies (server restart) is reported here; without a listener it would crash the process.
  const lost = (error: Error): void => {
    logger?.warn({ database: target.display, err: error.message }, 'a PostgreSQL connection was lost');
  };
  pool.on('error', lost);
  // A connection that dies while checked out between two queries (a transaction waiting on the
  // process) reports on the client itself, where the pool does not listen: without this, a
  // database restart crashes the process (seen in test/scale/outages.test.ts).
  pool.on('connect', (client) => client.on('error', lost));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresDialect({ pool });
}
