import type { SettingLevel } from './catalogue.js';

/** What a person may change where they are: the platform's own word, widened by ADMIN_USER_IDS. */
export interface SettingsRights {
  channel: boolean;
  workspace: boolean;
}

/**
 * A person's rights: `platform` from the platform itself on every call
 * (Slack: a workspace admin or owner may change both; Discord: Manage Server
 * both, Manage Channels the channel), and everything for the operator's admins.
 */
export function rightsOf(userId: string, platform: SettingsRights, adminUserIds: readonly string[]): SettingsRights {
  if (adminUserIds.includes(userId)) return { channel: true, workspace: true };
  return { channel: platform.channel || platform.workspace, workspace: platform.workspace };
}

export function mayChange(rights: SettingsRights, level: SettingLevel): boolean {
  return level === 'workspace' ? rights.workspace : rights.channel;
}
