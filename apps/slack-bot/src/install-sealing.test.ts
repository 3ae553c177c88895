import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InstallationSealer, UnsealError } from './install-sealing.js';

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const TOKEN = 'xoxb-1-secret-token';

describe('InstallationSealer', () => {
  it('seals so that the token is nowhere in the clear, and opens it again', () => {
    const sealer = new InstallationSealer({ current: NEW });
    const sealed = sealer.seal(JSON.stringify({ bot: { token: TOKEN } }), 'T1');
    expect(sealed).not.toContain(TOKEN);
    expect(Buffer.from(sealed.split('.')[4] ?? '', 'base64url').toString('latin1')).not.toContain(TOKEN);
    expect(sealer.seal(TOKEN, 'T1')).not.toBe(sealer.seal(TOKEN, 'T1'));
    expect(sealer.open(sealed, 'T1')).toEqual({ plain: JSON.stringify({ bot: { token: TOKEN } }), stale: false });
  });

  it('opens what the previous key sealed, and says so, after a key rotation', () => {
    const before = new InstallationSealer({ current: OLD }).seal(TOKEN, 'T1');
    const after = new InstallationSealer({ current: NEW, previous: OLD });
    expect(after.open(before, 'T1')).toEqual({ plain: TOKEN, stale: true });
    expect(() => new InstallationSealer({ current: NEW }).open(before, 'T1')).toThrow(UnsealError);
  });

  it('refuses a sealed value moved to another row, altered, or in another format', () => {
    const sealer = new InstallationSealer({ current: NEW });
    const sealed = sealer.seal(TOKEN, 'T1');
    expect(() => sealer.open(sealed, 'T2')).toThrow(UnsealError);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => sealer.open(parts.join('.'), 'T1')).toThrow(UnsealError);
    expect(() => sealer.open(TOKEN, 'T1')).toThrow(UnsealError);
  });
});
