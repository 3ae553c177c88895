import type { JsonValue, Platform, ScopedValues, SettingScope, SettingsStore } from '@genbot/core/store';
import { parseSetting } from './rows.js';
import { iso, type StoreContext } from './store-context.js';

/** The key columns of a scope; '' stands for "none" so keys compare alike in both dialects. */
function scopeKey(scope: SettingScope) {
  const targetId = scope.level === 'channel' ? scope.channelId : scope.level === 'user' ? scope.userId : '';
  return { platform: scope.platform, workspace_id: scope.workspaceId ?? '', level: scope.level, target_id: targetId };
}

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
