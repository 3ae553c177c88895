import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import { json, parseArgs, str } from '../params.js';
import type { SlackView } from '../interactivity.js';
import { checkModalBlocks } from './modal-blocks.js';
import type { MethodSpec } from './types.js';

const plainText = z.object({ type: z.literal('plain_text'), text: z.string().min(1) }).loose();

/**
 * What Slack checks of a modal: its type, a title of at most 24 characters,
 * at most 100 blocks, and a submit button whenever it holds an input.
 */
const modal = z
  .object({
    type: z.literal('modal'),
    title: plainText.refine((title) => title.text.length <= 24),
    submit: plainText.refine((submit) => submit.text.length <= 24).optional(),
    close: plainText.refine((close) => close.text.length <= 24).optional(),
    blocks: z.array(z.object({ type: z.string() }).loose()).max(100),
    private_metadata: z.string().max(3000).optional(),
    callback_id: z.string().max(255).optional(),
  })
  .loose()
  .refine((view) => view.submit !== undefined || !view.blocks.some((block) => block.type === 'input'));

const openArgs = z.object({ trigger_id: str, view: json(z.record(z.string(), z.unknown())) });
const updateArgs = z.object({
  view_id: str.optional(),
  hash: str.optional(),
  view: json(z.record(z.string(), z.unknown())),
});

/** Checks a view as Slack does before showing it; `response_action: update` answers are checked the same way. */
export function checkModal(view: Record<string, unknown>): Record<string, unknown> {
  const parsed = modal.safeParse(view);
  if (!parsed.success) throw new SlackApiError('invalid_arguments');
  checkModalBlocks(parsed.data.blocks);
  return view;
}

/** The view object Slack answers with: the app's view plus its id, hash and (empty) state. */
export function viewJson(view: SlackView, appId: string, teamId: string): Record<string, unknown> {
  return {
    ...view.view,
    id: view.id,
    team_id: teamId,
    app_id: appId,
    bot_id: '',
    hash: view.hash,
    private_metadata: view.view.private_metadata ?? '',
    callback_id: view.view.callback_id ?? '',
    state: { values: {} },
    previous_view_id: null,
    root_view_id: view.id,
  };
}

export const viewMethods: Record<string, MethodSpec> = {
  'views.open': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(openArgs, args);
      const view = checkModal(a.view);
      const trigger = env.interactivity.spend(a.trigger_id);
      const opened: SlackView = {
        id: env.workspace.nextId('V'),
        user: trigger.user,
        view,
        hash: env.workspace.nextTs(),
        open: true,
        history: [view],
      };
      env.interactivity.views.set(opened.id, opened);
      env.workspace.changed();
      return { view: viewJson(opened, env.identity.appId, env.identity.teamId) };
    },
  },

  'views.update': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(updateArgs, args);
      const shown = a.view_id === undefined ? undefined : env.interactivity.views.get(a.view_id);
      if (shown === undefined || !shown.open) throw new SlackApiError('not_found');
      if (a.hash !== undefined && a.hash !== shown.hash) throw new SlackApiError('hash_conflict');
      shown.view = checkModal(a.view);
      shown.history.push(shown.view);
      shown.hash = env.workspace.nextTs();
      env.workspace.changed();
      return { view: viewJson(shown, env.identity.appId, env.identity.teamId) };
    },
  },
};
