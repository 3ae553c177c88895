import { createLogger } from '@genbot/core/log';
import { describe, expect, it } from 'vitest';
import { ADMIN_FRESH_FOR_MS, WorkspaceAdmins } from './workspace-admins.js';

const logger = createLogger({ level: 'silent' });

/** users.info answering each person's role, counting the lookups. */
function workspace(roles: Record<string, { is_admin?: boolean; is_owner?: boolean }>) {
  const lookups: string[] = [];
  const lookUp = async (user: string) => {
    lookups.push(user);
    const role = roles[user];
    if (role === undefined) throw new Error('user_not_found');
    return { ok: true, user: { id: user, ...role } };
  };
  return { lookUp, lookups };
}

describe('WorkspaceAdmins', () => {
  it('lets admins and owners change both levels, members neither', async () => {
    const admins = new WorkspaceAdmins({ logger });
    const { lookUp } = workspace({
      U1: { is_admin: false, is_owner: false },
      U2: { is_admin: true, is_owner: false },
      U3: { is_admin: false, is_owner: true },
    });
    expect(await admins.rights(lookUp, 'T1', 'U1')).toEqual({ channel: false, workspace: false });
    expect(await admins.rights(lookUp, 'T1', 'U2')).toEqual({ channel: true, workspace: true });
    expect(await admins.rights(lookUp, 'T1', 'U3')).toEqual({ channel: true, workspace: true });
  });

  it('keeps a role for a minute per workspace, then asks again', async () => {
    let now = 1_000_000;
    const admins = new WorkspaceAdmins({ logger, now: () => now });
    const roles = { U1: { is_admin: true } };
    const { lookUp, lookups } = workspace(roles);
    await admins.rights(lookUp, 'T1', 'U1');
    roles.U1.is_admin = false;
    now += ADMIN_FRESH_FOR_MS - 1;
    expect(await admins.rights(lookUp, 'T1', 'U1')).toEqual({ channel: true, workspace: true });
    expect(await admins.rights(lookUp, 'T2', 'U1')).toEqual({ channel: false, workspace: false });
    now += 1;
    expect(await admins.rights(lookUp, 'T1', 'U1')).toEqual({ channel: false, workspace: false });
    expect(lookups).toEqual(['U1', 'U1', 'U1']);
  });

  it('grants nothing when users.info fails, and asks again next time', async () => {
    const admins = new WorkspaceAdmins({ logger });
    const { lookUp, lookups } = workspace({});
    expect(await admins.rights(lookUp, 'T1', 'U9')).toEqual({ channel: false, workspace: false });
    expect(await admins.rights(async () => ({ ok: true }), 'T1', 'U9')).toEqual({ channel: false, workspace: false });
    await admins.rights(lookUp, 'T1', 'U9');
    expect(lookups).toEqual(['U9', 'U9']);
  });
});
