import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import { parseArgs, str } from '../params.js';
import { userJson } from '../render.js';
import type { MethodSpec } from './types.js';

const infoArgs = z.object({ user: str.optional() });

export const userMethods: Record<string, MethodSpec> = {
  'users.info': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(infoArgs, args);
      const user = a.user !== undefined ? env.workspace.users.get(a.user) : undefined;
      if (!user) throw new SlackApiError('user_not_found');
      return { user: userJson(env.render, user) };
    },
  },
};
