import type { MethodSpec } from './types.js';

export const authMethods: Record<string, MethodSpec> = {
  'auth.test': {
    token: 'bot',
    handle: ({ env, owner }) => {
      const { identity } = env;
      const bot = env.workspace.users.get(identity.botUserId);
      return {
        url: `${env.render.baseUrl}`,
        team: owner?.teamName ?? identity.teamName,
        user: bot?.name ?? 'bot',
        team_id: owner === undefined ? identity.teamId : (owner.teamId ?? ''),
        user_id: identity.botUserId,
        bot_id: identity.botId,
        is_enterprise_install: owner?.isEnterpriseInstall ?? false,
        ...(owner?.enterpriseId !== undefined && { enterprise_id: owner.enterpriseId }),
      };
    },
  },
  'oauth.v2.access': {
    token: 'none',
    handle: ({ env, args }) => env.oauth.access(args),
  },
};
