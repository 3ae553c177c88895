import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import { json, parseArgs, str } from '../params.js';
import { checkBlocks } from './blocks.js';
import type { MethodSpec } from './types.js';

/** What Slack checks of a Home tab: its type, at most 100 blocks, its metadata's lengths. */
const homeView = z.looseObject({
  type: z.literal('home'),
  blocks: z.array(z.unknown()).max(100),
  private_metadata: z.string().max(3000).optional(),
  callback_id: z.string().max(255).optional(),
  external_id: z.string().max(255).optional(),
});

const publishArgs = z.object({ user_id: str, view: json(z.record(z.string(), z.unknown())), hash: str.optional() });

/** Slack refuses a view larger than 250 kB. */
const MAX_VIEW_BYTES = 250 * 1000;

export const homeMethods: Record<string, MethodSpec> = {
  /** Publishes a person's Home tab (needs `home_tab_enabled` in the manifest); `hash` guards against a race. */
  'views.publish': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(publishArgs, args);
      const { aiApps, identity, workspace } = env;
      if (!workspace.users.has(a.user_id)) throw new SlackApiError('invalid_arguments');
      if (Buffer.byteLength(JSON.stringify(a.view)) > MAX_VIEW_BYTES) throw new SlackApiError('view_too_large');
      const view = homeView.safeParse(a.view);
      if (!view.success) throw new SlackApiError('invalid_arguments');
      checkBlocks(view.data.blocks, 'invalid_arguments');
      if (!aiApps.homeTabEnabled) throw new SlackApiError('not_enabled');
      const shown = aiApps.homeTab(a.user_id);
      if (a.hash !== undefined && a.hash !== shown?.hash) throw new SlackApiError('hash_conflict');
      const tab = {
        id: shown?.id ?? workspace.nextId('V'),
        user: a.user_id,
        view: a.view,
        hash: workspace.nextTs(),
        atMs: Date.now(),
      };
      aiApps.publish(tab);
      return {
        view: {
          ...a.view,
          id: tab.id,
          team_id: identity.teamId,
          app_id: identity.appId,
          bot_id: identity.botId,
          hash: tab.hash,
          private_metadata: view.data.private_metadata ?? '',
          callback_id: view.data.callback_id ?? '',
          state: { values: {} },
          root_view_id: tab.id,
          previous_view_id: null,
        },
      };
    },
  },
};
