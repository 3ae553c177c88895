import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What each part of the store works with. */
export interface StoreContext {
  db: Kysely<Database>;
  now: () => Date;
}

/** Timestamps are written as ISO-8601 UTC text: SQLite sorts it as time, PostgreSQL reads it as timestamptz. */
export function iso(date: Date): string {
  return date.toISOString();
}
