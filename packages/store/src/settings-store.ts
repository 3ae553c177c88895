import { randomUUID } from 'node:crypto';
import type {
  JsonValue,
  Platform,
  ScopedValues,
  SettingChange,
  SettingPlace,
  SettingScope,
  SettingsStore,
} from '@genbot/core/store';
import { type Kysely, sql, type Transaction } from 'kysely';
import { parseNamedSetting, parseSetting, parseSettingChange } from './rows.js';
import type { Database } from './schema.js';
import { iso, type StoreContext } from './store-context.js';

/** The key columns of a scope; '' stands for "none" so keys compare alike in both dialects. */
function scopeKey(scope: SettingScope) {
  const targetId = scope.level === 'channel' ? scope.channelId : scope.level === 'user' ? scope.userId : '';
  return { platform: scope.platform, workspace_id: scope.workspaceId ?? '', level: scope.level, target_id: targetId };
}

/** Rows of a place's workspace level, and of its channel when it names one (both tables name these columns alike). */
function ofPlace(where: SettingPlace) {
  const channel =
    where.channelId === undefined ? sql`` : sql` or (level = 'channel' and target_id = ${where.channelId})`;
  return sql<boolean>`((level = 'workspace' and target_id = '')${channel})`;
}

const jsonOrNull = (value: JsonValue | undefined): string | null =>
  value === undefined ? null : JSON.stringify(value);

type Db = Kysely<Database> | Transaction<Database>;

/** The one row of a setting at a scope. */
function isSetting(scope: SettingScope, name: string) {
  const key = scopeKey(scope);
  return sql<boolean>`(platform = ${key.platform} and workspace_id = ${key.workspace_id} and level = ${key.level}
    and target_id = ${key.target_id} and name = ${name})`;
}

async function read(db: Db, scope: SettingScope, name: string): Promise<JsonValue | undefined> {
  const row = await db
    .selectFrom('settings')
    .select(['level', 'value'])
    .where(isSetting(scope, name))
    .executeTakeFirst();
  return row === undefined ? undefined : parseSetting(row).value;
}

/** Writes a setting's value at a scope, or with `value` undefined removes it. */
async function write(db: Db, scope: SettingScope, name: string, value: JsonValue | undefined, at: Date): Promise<void> {
  if (value === undefined) {
    await db.deleteFrom('settings').where(isSetting(scope, name)).execute();
    return;
  }
  const update = { value: JSON.stringify(value), updated_at: iso(at) };
  await db
    .insertInto('settings')
    .values({ ...scopeKey(scope), name, ...update })
    .onConflict((conflict) =>
      conflict.columns(['platform', 'workspace_id', 'level', 'target_id', 'name']).doUpdateSet(update),
    )
    .execute();
}

export function createSettingsStore({ db, now }: StoreContext): SettingsStore {
  return {
    get: (scope, name) => read(db, scope, name),
    put: (scope, name, value) => write(db, scope, name, value, now()),
    delete: (scope, name) => write(db, scope, name, undefined, now()),

    async place(where: SettingPlace): Promise<Record<string, ScopedValues>> {
      const rows = await db
        .selectFrom('settings')
        .select(['name', 'level', 'value'])
        .where('platform', '=', where.platform)
        .where('workspace_id', '=', where.workspaceId ?? '')
        .where(ofPlace(where))
        .execute();
      const values: Record<string, ScopedValues> = {};
      for (const row of rows) {
        const setting = parseNamedSetting(row);
        values[setting.name] = { ...values[setting.name], [setting.level]: setting.value };
      }
      return values;
    },

    async change(scope: SettingScope, name: string, value: JsonValue | undefined, by: string): Promise<SettingChange> {
      const key = scopeKey(scope);
      const at = now();
      return db.transaction().execute(async (trx) => {
        const previous = await read(trx, scope, name);
        await write(trx, scope, name, value, at);
        await trx
          .insertInto('setting_changes')
          .values({
            id: randomUUID(),
            ...key,
            name,
            previous: jsonOrNull(previous),
            value: jsonOrNull(value),
            changed_by: by,
            changed_at: iso(at),
          })
          .execute();
        return { scope, name, previous, value, by, at };
      });
    },

    async changes(where: SettingPlace, limit: number): Promise<SettingChange[]> {
      const rows = await db
        .selectFrom('setting_changes')
        .selectAll()
        .where('platform', '=', where.platform)
        .where('workspace_id', '=', where.workspaceId ?? '')
        .where(ofPlace(where))
        .orderBy('changed_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map(parseSettingChange);
    },

    async lookup(
      name: string,
      where: { platform: Platform; workspaceId?: string | undefined; channelId?: string; userId?: string },
    ): Promise<ScopedValues> {
      const rows = await db
        .selectFrom('settings')
        .select(['level', 'value'])
        .where('platform', '=', where.platform)
        .where('workspace_id', '=', where.workspaceId ?? '')
        .where('name', '=', name)
        .where((eb) =>
          eb.or([
            eb.and([eb('level', '=', 'workspace'), eb('target_id', '=', '')]),
            ...(where.channelId === undefined
              ? []
              : [eb.and([eb('level', '=', 'channel'), eb('target_id', '=', where.channelId)])]),
            ...(where.userId === undefined
              ? []
              : [eb.and([eb('level', '=', 'user'), eb('target_id', '=', where.userId)])]),
          ]),
        )
        .execute();
      const values: ScopedValues = {};
      for (const row of rows) {
        const setting = parseSetting(row);
        values[setting.level] = setting.value;
      }
      return values;
    },
  };
}
