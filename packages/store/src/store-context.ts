import type { Kysely } from 'kysely';
import type { DatabaseTarget } from './database-url.js';
import type { Database } from './schema.js';

/** What each part of the store works with. */
export interface StoreContext {
  db: Kysely<Database>;
  /** For the few steps the two dialects serialise differently (see usage-ledger.ts). */
  dialect: DatabaseTarget['dialect'];
  now: () => Date;
}

/** Timestamps are written as ISO-8601 UTC text: SQLite sorts it as time, PostgreSQL reads it as timestamptz. */
export function iso(date: Date): string {
  return date.toISOString();
}
