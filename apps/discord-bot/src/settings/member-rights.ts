import { rightsOf, type SettingsRights } from '@genbot/core/settings';
import { PermissionFlagsBits, type PermissionsBitField } from 'discord.js';

/**
 * What a person may change, read on every call from the interaction's own
 * `member.permissions` (this channel's, overwrites included): Manage Server
 * the server and any channel, Manage Channels this channel (Administrator
 * has both); ADMIN_USER_IDS everything. In a DM there is no member.
 */
export function memberRights(
  userId: string,
  permissions: Readonly<PermissionsBitField> | null,
  adminUserIds: readonly string[],
): SettingsRights {
  const platform = {
    channel: permissions?.has(PermissionFlagsBits.ManageChannels) === true,
    workspace: permissions?.has(PermissionFlagsBits.ManageGuild) === true,
  };
  return rightsOf(userId, platform, adminUserIds);
}
