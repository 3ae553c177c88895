import { describe, expect, it } from 'vitest';
import { pacedByCore } from './client.js';

const own = { global: false };

describe('pacedByCore', () => {
  it('throws rate limits at once on the calls core paces: message posts and edits, interaction webhooks', () => {
    for (const [method, route] of [
      ['POST', '/channels/:id/messages'],
      ['PATCH', '/channels/:id/messages/:id'],
      ['POST', '/webhooks/:id/:token'],
      ['PATCH', '/webhooks/:id/:token/messages/:id'],
    ] as const) {
      expect(pacedByCore({ ...own, method, route })).toBe(true);
    }
  });

  it('leaves discord.js waiting elsewhere: an interaction’s first answer, typing, commands, reads', () => {
    for (const [method, route] of [
      ['POST', '/interactions/:id/:token/callback'],
      ['POST', '/channels/:id/typing'],
      ['PUT', '/applications/:id/commands'],
      ['GET', '/channels/:id/messages/:id'],
    ] as const) {
      expect(pacedByCore({ ...own, method, route })).toBe(false);
    }
  });

  it('leaves the bot’s global limit to discord.js, whatever route met it: it is no channel’s refusal', () => {
    expect(pacedByCore({ global: true, method: 'POST', route: '/channels/:id/messages' })).toBe(false);
    expect(pacedByCore({ global: true, method: 'PATCH', route: '/channels/:id/messages/:id' })).toBe(false);
  });
});
