import type { JsonValue } from './json.js';
import type { Platform } from './where.js';

/** Where a setting applies. `workspaceId` is absent in a Discord DM. */
export type SettingScope =
  | { level: 'workspace'; platform: Platform; workspaceId?: string | undefined }
  | { level: 'channel'; platform: Platform; workspaceId?: string | undefined; channelId: string }
  | { level: 'user'; platform: Platform; workspaceId?: string | undefined; userId: string };

/** A setting's value at each level that has one; the caller decides which wins. */
export interface ScopedValues {
  workspace?: JsonValue | undefined;
  channel?: JsonValue | undefined;
  user?: JsonValue | undefined;
}

export interface SettingsStore {
  get(scope: SettingScope, key: string): Promise<JsonValue | undefined>;
  put(scope: SettingScope, key: string, value: JsonValue): Promise<void>;
  delete(scope: SettingScope, key: string): Promise<void>;

  /** One key at every level that applies to a place and a user, in one read. */
  lookup(
    key: string,
    where: { platform: Platform; workspaceId?: string | undefined; channelId?: string; userId?: string },
  ): Promise<ScopedValues>;
}
