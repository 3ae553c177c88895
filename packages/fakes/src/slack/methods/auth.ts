import type { MethodSpec } from './types.js';

export const authMethods: Record<string, MethodSpec> = {
  'auth.test': {
    token: 'bot',
    handle: ({ env }) => {
      const { identity } = env;
      const bot = env.workspace.users.get(identity.botUserId);
      return {
        url: `${env.render.baseUrl}`,
        team: identity.teamName,
        user: bot?.name ?? 'bot',
        team_id: identity.teamId,
        user_id: identity.botUserId,
        bot_id: identity.botId,
        is_enterprise_install: false,
      };
    },
  },
};
