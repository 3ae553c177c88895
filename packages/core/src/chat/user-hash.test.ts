import { describe, expect, it } from 'vitest';
import { opaqueUserId } from './user-hash.js';

describe('opaqueUserId', () => {
  it('is a stable hash that never shows the platform ID', () => {
    const id = opaqueUserId('slack', 'U0123ABCD', 'deployment-key');
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(id).not.toContain('U0123ABCD');
    expect(opaqueUserId('slack', 'U0123ABCD', 'deployment-key')).toBe(id);
    expect(opaqueUserId('slack', 'U0123ABCD', undefined)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart users, platforms and deployments', () => {
    const ids = [
      opaqueUserId('slack', 'U1', 'key-a'),
      opaqueUserId('slack', 'U2', 'key-a'),
      opaqueUserId('discord', 'U1', 'key-a'),
      opaqueUserId('slack', 'U1', 'key-b'),
      opaqueUserId('slack', 'U1', undefined),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
