import type { InstallationStore } from '@genbot/core/store';
import { describe, expect, it } from 'vitest';
import { OneUseStateStore, STATE_TTL_MS, StateRefusedError } from './install-states.js';

/** The states part of the port, in memory, with the store's own rule: taken once, never after expiry. */
function statesOnly(now: () => Date): Pick<InstallationStore, 'putState' | 'takeState'> {
  const states = new Map<string, { payload: string; expiresAt: Date }>();
  return {
    putState: async (state, expiresAt, payload) => {
      states.set(state, { payload, expiresAt });
    },
    takeState: async (state) => {
      const found = states.get(state);
      states.delete(state);
      return found !== undefined && found.expiresAt > now() ? found.payload : undefined;
    },
  };
}

const OPTIONS = { scopes: ['chat:write'], redirectUri: 'https://genbot.example/slack/oauth_redirect' };

function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof StateRefusedError ? error.refusal : String(error)),
  );
}

describe('OneUseStateStore', () => {
  it('gives back the install options once, refuses a state altered or signed with another secret, and one past its 10 minutes', async () => {
    let at = new Date('2026-11-29T07:00:00Z');
    const now = () => at;
    const store = statesOnly(now);
    const states = new OneUseStateStore({ store, stateSecret: 'secret-1', now });
    const state = await states.generateStateParam(OPTIONS, at);
    expect(await states.verifyStateParam(at, state)).toEqual(OPTIONS);
    expect(await refusal(states.verifyStateParam(at, state))).toBe('used');

    const [id, expiry, signature] = (await states.generateStateParam(OPTIONS, at)).split('.');
    expect(await refusal(states.verifyStateParam(at, `${id}.${Number(expiry) + 60_000}.${signature}`))).toBe('forged');
    expect(await refusal(states.verifyStateParam(at, `${id}.${expiry}`))).toBe('forged');
    const other = new OneUseStateStore({ store, stateSecret: 'secret-2', now });
    expect(await refusal(other.verifyStateParam(at, `${id}.${expiry}.${signature}`))).toBe('forged');

    const late = await states.generateStateParam(OPTIONS, at);
    at = new Date(at.getTime() + STATE_TTL_MS + 1);
    expect(await refusal(states.verifyStateParam(at, late))).toBe('expired');
  });
});
