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

/** A channel (or only a workspace, without `channelId`): where settings are looked up together. */
export interface SettingPlace {
  platform: Platform;
  workspaceId?: string | undefined;
  channelId?: string | undefined;
}

/** One recorded change of one setting; `value` undefined is a reset. */
export interface SettingChange {
  scope: SettingScope;
  name: string;
  previous: JsonValue | undefined;
  value: JsonValue | undefined;
  /** The platform user id of who changed it. */
  by: string;
  at: Date;
}

export interface SettingsStore {
  get(scope: SettingScope, key: string): Promise<JsonValue | undefined>;
  put(scope: SettingScope, key: string, value: JsonValue): Promise<void>;
  delete(scope: SettingScope, key: string): Promise<void>;

  /** Every setting of a place, at the workspace and channel levels, in one read: name -> its values. */
  place(where: SettingPlace): Promise<Record<string, ScopedValues>>;

  /**
   * Sets one setting (or resets it, with `value` undefined) and records who
   * changed it, when, and the value before, in one transaction.
   */
  change(scope: SettingScope, key: string, value: JsonValue | undefined, by: string): Promise<SettingChange>;

  /** The latest recorded changes of a place's channel and its workspace, newest first. */
  changes(where: SettingPlace, limit: number): Promise<SettingChange[]>;

  /** One key at every level that applies to a place and a user, in one read. */
  lookup(
    key: string,
    where: { platform: Platform; workspaceId?: string | undefined; channelId?: string; userId?: string },
  ): Promise<ScopedValues>;
}
