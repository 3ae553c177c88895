import type { Kysely } from 'kysely';

/**
 * Slack installations for many-workspace mode (one row per enterprise or
 * team, the installation sealed by the app), the workspaces met under an
 * org-wide installation, and the states of installs under way, each good once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('installations')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('enterprise_id', 'text')
    .addColumn('team_id', 'text')
    .addColumn('sealed', 'text', (col) => col.notNull())
    .addColumn('installed_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', 'timestamptz')
    .execute();
  await db.schema
    .createTable('oauth_states')
    .addColumn('state', 'text', (col) => col.primaryKey())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('oauth_states_expires_at').on('oauth_states').column('expires_at').execute();
  await db.schema
    .createTable('installation_teams')
    .addColumn('team_id', 'text', (col) => col.primaryKey())
    .addColumn('installation_key', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('installation_teams_by_key')
    .on('installation_teams')
    .column('installation_key')
    .execute();
}
