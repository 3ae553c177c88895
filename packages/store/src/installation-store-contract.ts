import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenedStore, openStore } from './open-store.js';
import { TestClock } from './testing/clock.js';
import type { StoreHarness } from './testing/store-contract.js';

const MINUTE = 60_000;

/** The installations part of the store, alike on every dialect; each dialect's test file runs it. */
export function describeInstallationContract(dialect: string, harness: () => StoreHarness): void {
  describe(`Installations on ${dialect}`, () => {
    let clock: TestClock;
    let url: string;
    let store: OpenedStore;

    beforeEach(async () => {
      clock = new TestClock('2026-11-29T07:00:00.000Z');
      url = await harness().freshUrl();
      store = await openStore(url, { now: clock.now });
    });

    afterEach(async () => {
      await store.close();
    });

    it('keeps an installation under its key, replaces it on a new install, and deletes it', async () => {
      await store.installations.put({ key: 'T1', enterpriseId: undefined, teamId: 'T1', sealed: 'sealed-1' });
      const installedAt = clock.now();
      clock.advance(MINUTE);
      await store.installations.put({ key: 'E1', enterpriseId: 'E1', teamId: undefined, sealed: 'sealed-org' });
      await store.installations.put({ key: 'T1', enterpriseId: undefined, teamId: 'T1', sealed: 'sealed-2' });
      expect(await store.installations.get('T1')).toEqual({
        key: 'T1',
        enterpriseId: undefined,
        teamId: 'T1',
        sealed: 'sealed-2',
        installedAt,
        updatedAt: clock.now(),
      });
      expect(await store.installations.get('E1')).toMatchObject({ enterpriseId: 'E1', teamId: undefined });
      expect(await store.installations.delete('T1')).toBe(true);
      expect(await store.installations.delete('T1')).toBe(false);
      expect(await store.installations.get('T1')).toBeUndefined();
      expect(await store.installations.get('E1')).toBeDefined();
    });

    it('links the workspaces of an org-wide installation to it, until it is deleted', async () => {
      await store.installations.put({ key: 'E1', enterpriseId: 'E1', teamId: undefined, sealed: 'org' });
      await store.installations.linkTeam('T3', 'E1');
      await store.installations.linkTeam('T3', 'E1');
      await store.installations.linkTeam('T4', 'E1');
      expect(await store.installations.linkedKey('T3')).toBe('E1');
      expect(await store.installations.linkedKey('T9')).toBeUndefined();
      await store.installations.delete('E1');
      expect(await store.installations.linkedKey('T3')).toBeUndefined();
      expect(await store.installations.linkedKey('T4')).toBeUndefined();
    });

    it('seals an installation again only while it is what was read', async () => {
      await store.installations.put({ key: 'T1', enterpriseId: undefined, teamId: 'T1', sealed: 'old-key' });
      expect(await store.installations.reseal('T1', 'old-key', 'new-key')).toBe(true);
      await store.installations.put({ key: 'T1', enterpriseId: undefined, teamId: 'T1', sealed: 'refreshed' });
      expect(await store.installations.reseal('T1', 'new-key', 'stale-resealed')).toBe(false);
      expect((await store.installations.get('T1'))?.sealed).toBe('refreshed');
    });

    it('gives an installation lease to one holder at a time, until it is given back or runs out', async () => {
      await store.installations.put({ key: 'T1', enterpriseId: undefined, teamId: 'T1', sealed: 'x' });
      const until = new Date(clock.now().getTime() + MINUTE);
      expect(await store.installations.lease('T1', 'a', until)).toBe(true);
      expect(await store.installations.lease('T1', 'b', until)).toBe(false);
      expect(await store.installations.lease('T1', 'a', until)).toBe(true);
      await store.installations.release('T1', 'b');
      expect(await store.installations.lease('T1', 'b', until)).toBe(false);
      await store.installations.release('T1', 'a');
      expect(await store.installations.lease('T1', 'b', until)).toBe(true);
      clock.advance(2 * MINUTE);
      expect(await store.installations.lease('T1', 'a', new Date(clock.now().getTime() + MINUTE))).toBe(true);
      expect(await store.installations.lease('T-unknown', 'a', until)).toBe(false);
    });

    it('answers a state once, on any connection, and never after it expired', async () => {
      const other = await openStore(url, { now: clock.now });
      try {
        await store.installations.putState('s1', new Date(clock.now().getTime() + 10 * MINUTE), '{"a":1}');
        await store.installations.putState('s2', new Date(clock.now().getTime() + MINUTE), '{"b":2}');
        const taken = await Promise.all([store.installations.takeState('s1'), other.installations.takeState('s1')]);
        expect(taken.filter((payload) => payload !== undefined)).toEqual(['{"a":1}']);
        clock.advance(2 * MINUTE);
        expect(await other.installations.takeState('s2')).toBeUndefined();
        expect(await store.installations.takeState('never-given')).toBeUndefined();
      } finally {
        await other.close();
      }
    });
  });
}
