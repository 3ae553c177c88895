import { StoreUnavailableError } from '@genbot/core/store';
import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { DatabaseTarget } from './database-url.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';

const MIGRATION_TABLE = 'kysely_migration';

/**
 * Brings the schema to the latest version, or to `target` (tests start from
 * an older one). PostgreSQL serialises concurrent migrators with an advisory
 * lock; SQLite has none in Kysely, so the whole run happens inside one
 * `BEGIN IMMEDIATE`: a second process opening the same file waits, then finds
 * the work done.
 */
export async function migrate(db: Kysely<Database>, where: DatabaseTarget, target?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...MIGRATIONS }) },
    migrationTableName: MIGRATION_TABLE,
  });
  const run = async () => {
    await refuseNewerSchema(db, where);
    return target === undefined ? migrator.migrateToLatest() : migrator.migrateTo(target);
  };
  let result: Awaited<ReturnType<typeof run>>;
  if (where.dialect === 'sqlite') {
    await sql`begin immediate`.execute(db);
    try {
      result = await run();
      if (result.error === undefined) await sql`commit`.execute(db);
      else await sql`rollback`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } else {
    result = await run();
  }
  if (result.error !== undefined) {
    const failed = result.results?.find((migration) => migration.status === 'Error')?.migrationName;
    if (result.error instanceof StoreUnavailableError) throw result.error;
    throw new Error(
      `DATABASE_URL: migrating ${where.display}${failed === undefined ? '' : ` (${failed})`} failed: ${describe(result.error)}`,
      { cause: result.error },
    );
  }
}

/**
 * A database that a newer genbot migrated has migrations this one does not
 * know; running against it could misread its rows. Say so instead of
 * Kysely's "corrupted migrations".
 */
async function refuseNewerSchema(db: Kysely<Database>, where: DatabaseTarget): Promise<void> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === MIGRATION_TABLE)) return;
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  const unknown = rows.map((row) => row.name).filter((name) => !(name in MIGRATIONS));
  if (unknown.length > 0) {
    throw new StoreUnavailableError(
      `DATABASE_URL: ${where.display} was migrated by a newer genbot (migrations ${unknown.join(', ')} are unknown here): run that version or newer`,
      { retryable: false },
    );
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
