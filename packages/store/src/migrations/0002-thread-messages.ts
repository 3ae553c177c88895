import type { Kysely } from 'kysely';

/** The thread cache: messages as the platform's events delivered them, so replies need fewer history calls. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('thread_messages')
    .addColumn('platform', 'text', (col) => col.notNull())
    .addColumn('channel_id', 'text', (col) => col.notNull())
    .addColumn('message_id', 'text', (col) => col.notNull())
    .addColumn('workspace_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('thread_id', 'text', (col) => col.notNull())
    .addColumn('author_id', 'text', (col) => col.notNull())
    .addColumn('author_name', 'text', (col) => col.notNull())
    .addColumn('author_is_bot', 'integer', (col) => col.notNull())
    .addColumn('author_is_self', 'integer', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('attachments', 'text', (col) => col.notNull())
    .addColumn('posted_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('thread_messages_pkey', ['platform', 'channel_id', 'message_id'])
    .execute();
  await db.schema
    .createIndex('thread_messages_by_thread')
    .on('thread_messages')
    .columns(['platform', 'channel_id', 'thread_id', 'posted_at'])
    .execute();
  await db.schema.createIndex('thread_messages_posted_at').on('thread_messages').column('posted_at').execute();
}
