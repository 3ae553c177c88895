import type { Store } from '@genbot/core/store';
import { type Dialect, Kysely, sql } from 'kysely';
import { createImageVersionStore } from './image-version-store.js';
import { createInstallationStore } from './installation-store.js';
import { createJobStore } from './job-store.js';
import { type DatabaseTarget, parseDatabaseUrl } from './database-url.js';
import { migrate } from './migrate.js';
import { openPostgres } from './open-postgres.js';
import { openSqlite } from './open-sqlite.js';
import type { Database } from './schema.js';
import { createSettingsStore } from './settings-store.js';
import type { StoreOptions } from './store-options.js';
import { sweep } from './sweep.js';
import { createThreadCacheStore } from './thread-cache-store.js';
import { unavailableError } from './unavailable.js';
import { translatingDialect } from './unavailable-dialect.js';
import { createUsageLedger } from './usage-ledger.js';

export interface OpenedStore extends Store {
  /** Which database, without a password: `sqlite:/abs/path` or `postgres://user@host:port/db`. */
  readonly display: string;
  readonly dialect: DatabaseTarget['dialect'];
}

/**
 * Opens the store DATABASE_URL names (unset: ./data/genbot.db) and migrates
 * its schema. Rejects with DatabaseUrlError for a value that names no
 * database, and StoreUnavailableError for one that cannot be used (down,
 * refused, damaged, read-only), both naming DATABASE_URL.
 */
export async function openStore(databaseUrl: string | undefined, options: StoreOptions = {}): Promise<OpenedStore> {
  const target = parseDatabaseUrl(databaseUrl);
  const db = await connect(target, options);
  try {
    await migrate(db, target);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return kyselyStore(db, target, options);
}

/** Connects without migrating; `openStore` is what the product uses. */
export async function connect(target: DatabaseTarget, options: StoreOptions = {}): Promise<Kysely<Database>> {
  const translate = (error: unknown): unknown => unavailableError(error, target) ?? error;
  let dialect: Dialect;
  try {
    dialect = target.dialect === 'sqlite' ? await openSqlite(target) : await openPostgres(target, options.logger);
  } catch (error) {
    throw translate(error);
  }
  return new Kysely<Database>({ dialect: translatingDialect(dialect, translate) });
}

export function kyselyStore(db: Kysely<Database>, target: DatabaseTarget, options: StoreOptions = {}): OpenedStore {
  const context = { db, dialect: target.dialect, now: options.now ?? (() => new Date()) };
  return {
    display: target.display,
    dialect: target.dialect,
    jobs: createJobStore(context),
    versions: createImageVersionStore(context),
    usage: createUsageLedger(context),
    settings: createSettingsStore(context),
    threads: createThreadCacheStore(context),
    installations: createInstallationStore(context),
    sweep: (sweepOptions) => sweep(context, sweepOptions),
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
