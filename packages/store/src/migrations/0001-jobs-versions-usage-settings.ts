import type { Kysely } from 'kysely';

/** The first schema: jobs, the image versions they post, the usage ledger and scoped settings. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('schema_version', 'integer', (col) => col.notNull())
    .addColumn('platform', 'text', (col) => col.notNull())
    .addColumn('workspace_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('channel_id', 'text', (col) => col.notNull())
    .addColumn('thread_id', 'text')
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('input', 'text')
    .addColumn('interaction_token', 'text')
    .addColumn('interaction_expires_at', 'timestamptz')
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('outcome', 'text')
    .addColumn('outcome_detail', 'text')
    .addColumn('steps', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('jobs_unfinished').on('jobs').columns(['state', 'platform', 'created_at']).execute();
  await db.schema.createIndex('jobs_created_at').on('jobs').column('created_at').execute();

  await db.schema
    .createTable('image_versions')
    .addColumn('job_id', 'text', (col) => col.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('image_index', 'integer', (col) => col.notNull())
    .addColumn('platform', 'text', (col) => col.notNull())
    .addColumn('workspace_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('channel_id', 'text', (col) => col.notNull())
    .addColumn('thread_id', 'text')
    .addColumn('message_id', 'text')
    .addColumn('file_id', 'text')
    .addColumn('mime_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('parent_job_id', 'text')
    .addColumn('parent_image_index', 'integer')
    .addColumn('prompt', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('image_versions_pkey', ['job_id', 'image_index'])
    .addForeignKeyConstraint(
      'image_versions_parent_fkey',
      ['parent_job_id', 'parent_image_index'],
      'image_versions',
      ['job_id', 'image_index'],
      (fk) => fk.onDelete('set null'),
    )
    .execute();
  await db.schema
    .createIndex('image_versions_by_message')
    .on('image_versions')
    .columns(['platform', 'channel_id', 'message_id'])
    .execute();
  await db.schema
    .createIndex('image_versions_by_thread')
    .on('image_versions')
    .columns(['platform', 'channel_id', 'thread_id', 'created_at'])
    .execute();
  await db.schema.createIndex('image_versions_created_at').on('image_versions').column('created_at').execute();

  await db.schema
    .createTable('usage_ledger')
    .addColumn('job_id', 'text', (col) => col.primaryKey().references('jobs.id').onDelete('cascade'))
    .addColumn('platform', 'text', (col) => col.notNull())
    .addColumn('workspace_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('images', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('input_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('output_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('tokens_estimated', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('recorded_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('usage_ledger_by_user')
    .on('usage_ledger')
    .columns(['platform', 'workspace_id', 'user_id', 'recorded_at'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('platform', 'text', (col) => col.notNull())
    .addColumn('workspace_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('level', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('settings_pkey', ['platform', 'workspace_id', 'level', 'target_id', 'name'])
    .execute();
}
