import type { Logger } from '@genbot/core/log';
import type { App } from '@slack/bolt';
import { z } from 'zod';
import type { WorkspaceInstalls } from '../install-provider.js';
import type { SlackWorkspaces } from '../workspaces.js';

const tokensRevoked = z.looseObject({
  event: z.looseObject({ tokens: z.looseObject({ bot: z.array(z.string()).optional() }) }),
});

/**
 * With installs: `app_uninstalled`, or `tokens_revoked` naming the bot's
 * token, deletes the workspace's installation (its tokens with it) and
 * forgets its parts, so nothing is answered there any more; its jobs still
 * stored end without posting, their calls finding no token. Bolt delivers
 * both without looking the installation up.
 */
export function registerInstallEvents(
  app: App,
  options: { installs: WorkspaceInstalls; workspaces: SlackWorkspaces; logger: Logger },
): void {
  const { installs, workspaces, logger } = options;
  const uninstall = async (origin: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean }) => {
    try {
      await installs.uninstall(origin);
      workspaces.forget(origin.teamId ?? origin.enterpriseId ?? '');
    } catch (error) {
      logger.error(
        { err: error, team: origin.teamId, enterprise: origin.enterpriseId },
        'could not delete an installation',
      );
    }
  };
  app.event('app_uninstalled', async ({ context }) => {
    await uninstall(context);
  });
  app.event('tokens_revoked', async ({ body, context }) => {
    const parsed = tokensRevoked.safeParse(body);
    if (!parsed.success) {
      logger.warn('tokens_revoked event in an unexpected shape; ignored');
      return;
    }
    // Only user tokens revoked: the bot keeps answering with its own.
    if ((parsed.data.event.tokens.bot ?? []).length > 0) await uninstall(context);
  });
}
