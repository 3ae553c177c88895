import { rightsOf, type SettingsRights } from '@genbot/core/settings';
import type { webApi } from '@slack/bolt';
import type { WorkspaceAdmins } from './workspace-admins.js';

/** What a person may change in a workspace, asked of the workspace's own client (its token). */
export type WorkspaceRights = (
  client: webApi.WebClient,
  workspaceId: string,
  userId: string,
) => Promise<SettingsRights>;

/**
 * Slack's word on who administers a workspace (`users.info`, kept briefly),
 * widened by ADMIN_USER_IDS: the one check `/genbot`, `/usage` and the Home
 * tab make, on every call.
 */
export function workspaceRights(admins: WorkspaceAdmins, adminUserIds: readonly string[]): WorkspaceRights {
  return async (client, workspaceId, userId) => {
    const platform = await admins.rights((user) => client.users.info({ user }), workspaceId, userId);
    return rightsOf(userId, platform, adminUserIds);
  };
}
