import type { Kysely } from 'kysely';

/** Every change of a setting: who made it, when, and the value before and after (null: none, a reset). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('setting_changes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('platform', 'text', (col) => col.notNull())
    .addColumn('workspace_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('level', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('previous', 'text')
    .addColumn('value', 'text')
    .addColumn('changed_by', 'text', (col) => col.notNull())
    .addColumn('changed_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('setting_changes_place')
    .on('setting_changes')
    .columns(['platform', 'workspace_id', 'changed_at'])
    .execute();
}
