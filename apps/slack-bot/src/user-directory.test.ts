import { createLogger } from '@genbot/core/log';
import { describe, expect, it } from 'vitest';
import { UserDirectory } from './user-directory.js';

const logger = createLogger({ level: 'silent' });

/** users.info as Slack answers it, counting the calls per user. */
function directory(capacity: number): { users: UserDirectory; lookups: string[] } {
  const lookups: string[] = [];
  const users = new UserDirectory(
    async (user) => {
      lookups.push(user);
      return { ok: true, user: { id: user, name: user.toLowerCase(), profile: { display_name: `Name ${user}` } } };
    },
    logger,
    capacity,
  );
  return { users, lookups };
}

describe('UserDirectory', () => {
  it('looks each user up once while they stay among the most recently used', async () => {
    const { users, lookups } = directory(2);
    expect(await users.names(['U1', 'U2', 'U1'])).toEqual(
      new Map([
        ['U1', 'Name U1'],
        ['U2', 'Name U2'],
      ]),
    );
    expect(await users.name('U2')).toBe('Name U2');
    expect(lookups).toEqual(['U1', 'U2']);
  });

  it('keeps at most its capacity, forgetting the least recently used first', async () => {
    const { users, lookups } = directory(2);
    await users.name('U1');
    await users.name('U2');
    // U1 is used again, so U2 is now the least recently used.
    await users.name('U1');
    await users.name('U3');
    expect(users.size).toBe(2);
    await users.name('U1');
    await users.name('U2');
    expect(lookups).toEqual(['U1', 'U2', 'U3', 'U2']);
  });

  it('falls back to the ID when the lookup fails, and tries again next time', async () => {
    let fail = true;
    const users = new UserDirectory(async (user) => {
      if (fail) throw new Error('users.info failed');
      return { ok: true, user: { id: user, name: 'alice' } };
    }, logger);
    expect(await users.name('U1')).toBe('U1');
    fail = false;
    expect(await users.name('U1')).toBe('alice');
  });
});
