import type { Kysely } from 'kysely';

/**
 * What the thread cache knows of a thread's completeness, so a restart keeps
 * it without taking a thread seen in part for the whole: which run of the bot
 * saw a message arrive live, and, on a thread's first message, the run in
 * which the thread was held whole and through which message. One column a
 * statement: SQLite adds no more at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['live_run', 'whole_run', 'whole_through']) {
    await db.schema.alterTable('thread_messages').addColumn(column, 'text').execute();
  }
}
