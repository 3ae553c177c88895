import { isSettingName, type SettingName } from '@genbot/core/settings';
import { z } from 'zod';
import { describeIssue, type Parsed } from './parse-app-mention.js';
import { INHERIT, VALUE_ACTION } from './settings-modal.js';

const stateEntry = z.looseObject({
  value: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
});

const submission = z.looseObject({
  type: z.literal('view_submission'),
  user: z.looseObject({ id: z.string().min(1) }),
  team: z.looseObject({ id: z.string().min(1) }).nullish(),
  view: z.looseObject({
    id: z.string().min(1),
    private_metadata: z.string(),
    state: z.looseObject({ values: z.record(z.string(), z.record(z.string(), stateEntry)) }),
  }),
});

const levelSwitch = z.looseObject({
  type: z.literal('block_actions'),
  user: z.looseObject({ id: z.string().min(1) }),
  team: z.looseObject({ id: z.string().min(1) }).nullish(),
  view: z.looseObject({ id: z.string().min(1), hash: z.string().min(1), private_metadata: z.string() }),
  actions: z
    .array(z.looseObject({ selected_option: z.looseObject({ value: z.enum(['channel', 'workspace']) }) }))
    .min(1),
});

const homeSettingsPress = z.looseObject({
  type: z.literal('block_actions'),
  trigger_id: z.string().min(1),
  user: z.looseObject({ id: z.string().min(1), team_id: z.string().min(1).optional() }),
  team: z.looseObject({ id: z.string().min(1) }).nullish(),
  actions: z.array(z.looseObject({ value: z.string().regex(/^D[A-Z0-9]+$/) })).min(1),
});

/** The Home tab's settings button pressed: who, in which workspace, and their DM with the app. */
export interface HomeSettingsPress {
  userId: string;
  workspaceId: string;
  triggerId: string;
  channel: string;
}

export function parseHomeSettingsPress(body: unknown): Parsed<HomeSettingsPress> {
  const parsed = homeSettingsPress.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { user, team, trigger_id: triggerId, actions } = parsed.data;
  const workspaceId = team?.id ?? user.team_id;
  if (workspaceId === undefined) return { ok: false, problem: 'no team in the press' };
  return { ok: true, value: { userId: user.id, workspaceId, triggerId, channel: actions[0]?.value ?? '' } };
}

/** A submitted settings modal: what each field holds ('' for inherit), by setting; a field the form did not hold is absent. */
export interface SettingsSubmission {
  userId: string;
  workspaceId: string | undefined;
  metadata: string;
  values: Partial<Record<SettingName, string>>;
}

/** The level a person switched the modal to. */
export interface SettingsLevelSwitch {
  userId: string;
  workspaceId: string | undefined;
  viewId: string;
  hash: string;
  metadata: string;
  level: 'channel' | 'workspace';
}

/** The `view_submission` body Bolt hands the settings modal's listener. */
export function parseSettingsSubmission(body: unknown): Parsed<SettingsSubmission> {
  const parsed = submission.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { data } = parsed;
  const values: Partial<Record<SettingName, string>> = {};
  for (const [blockId, actions] of Object.entries(data.view.state.values)) {
    const entry = actions[VALUE_ACTION];
    if (!isSettingName(blockId) || entry === undefined) continue;
    const chosen = entry.selected_option?.value;
    values[blockId] = chosen === undefined ? (entry.value ?? '') : chosen === INHERIT ? '' : chosen;
  }
  return {
    ok: true,
    value: { userId: data.user.id, workspaceId: data.team?.id, metadata: data.view.private_metadata, values },
  };
}

/** The `block_actions` body of the modal's level select. */
export function parseSettingsLevelSwitch(body: unknown): Parsed<SettingsLevelSwitch> {
  const parsed = levelSwitch.safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error) };
  const { data } = parsed;
  const [action] = data.actions;
  if (action === undefined) return { ok: false, problem: 'actions: empty' };
  return {
    ok: true,
    value: {
      userId: data.user.id,
      workspaceId: data.team?.id,
      viewId: data.view.id,
      hash: data.view.hash,
      metadata: data.view.private_metadata,
      level: action.selected_option.value,
    },
  };
}
