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
import { sql } from 'kysely';
import { parseNamedSetting, parseSetting, parseSettingChange } from './rows.js';
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

export function createSettingsStore({ db, now }: StoreContext): SettingsStore {
  const select = (scope: SettingScope, name: string) => {
    const key = scopeKey(scope);
    return db
      .selectFrom('settings')
      .where('platform', '=', key.platform)
      .where('workspace_id', '=', key.workspace_id)
      .where('level', '=', key.level)
      .where('target_id', '=', key.target_id)
      .where('name', '=', name);
  };

  return {
    async get(scope: SettingScope, name: string): Promise<JsonValue | undefined> {
      const row = await select(scope, name).select(['level', 'value']).executeTakeFirst();
      return row === undefined ? undefined : parseSetting(row).value;
    },

    async put(scope: SettingScope, name: string, value: JsonValue): Promise<void> {
      const update = { value: JSON.stringify(value), updated_at: iso(now()) };
      await db
        .insertInto('settings')
        .values({ ...scopeKey(scope), name, ...update })
        .onConflict((conflict) =>
          conflict.columns(['platform', 'workspace_id', 'level', 'target_id', 'name']).doUpdateSet(update),
        )
        .execute();
    },

    async delete(scope: SettingScope, name: string): Promise<void> {
      const key = scopeKey(scope);
      await db
        .deleteFrom('settings')
        .where('platform', '=', key.platform)
        .where('workspace_id', '=', key.workspace_id)
        .where('level', '=', key.level)
        .where('target_id', '=', key.target_id)
        .where('name', '=', name)
        .execute();
    },

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
        const before = await trx
          .selectFrom('settings')
          .select(['level', 'value'])
          .where('platform', '=', key.platform)
          .where('workspace_id', '=', key.workspace_id)
          .where('level', '=', key.level)
          .where('target_id', '=', key.target_id)
          .where('name', '=', name)
          .executeTakeFirst();
        const previous = before === undefined ? undefined : parseSetting(before).value;
        if (value === undefined) {
          await trx
            .deleteFrom('settings')
            .where('platform', '=', key.platform)
            .where('workspace_id', '=', key.workspace_id)
            .where('level', '=', key.level)
            .where('target_id', '=', key.target_id)
            .where('name', '=', name)
            .execute();
        } else {
          const update = { value: JSON.stringify(value), updated_at: iso(at) };
          await trx
            .insertInto('settings')
            .values({ ...key, name, ...update })
            .onConflict((conflict) =>
              conflict.columns(['platform', 'workspace_id', 'level', 'target_id', 'name']).doUpdateSet(update),
            )
            .execute();
        }
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
