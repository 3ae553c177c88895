import { REST } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordFake, type DiscordFake } from './index.js';

let discord: DiscordFake | undefined;
afterEach(async () => {
  await discord?.close();
  discord = undefined;
});

describe("the Discord fake's global (per-bot) rate limit", () => {
  it('answers 429 with global: true past the limit, on any route, and lets interaction callbacks through', async () => {
    discord = await startDiscordFake();
    const fake = discord;
    fake.globalRateLimit({ limit: 3, windowMs: 60_000 });
    const get = (path: string) =>
      fetch(`${fake.apiUrl}/v10${path}`, { headers: { authorization: `Bot ${fake.botToken}` } });
    expect((await get('/users/@me')).status).toBe(200);
    expect((await get('/gateway/bot')).status).toBe(200);
    expect((await get(`/channels/${fake.channelId('general')}`)).status).toBe(200);
    const over = await get('/users/@me');
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-global')).toBe('true');
    expect(over.headers.get('x-ratelimit-scope')).toBe('global');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toMatchObject({ global: true, retry_after: expect.any(Number) });
    expect(fake.state.rateLimitHits.map((hit) => hit.route)).toEqual(['global']);

    // Not counted: an unknown interaction is refused as such, not rate limited.
    const callback = await fetch(`${fake.apiUrl}/v10/interactions/1/nope/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 4, data: { content: 'hi' } }),
    });
    expect(callback.status).not.toBe(429);
  });

  it('is waited out by discord.js, which sees it as global', async () => {
    discord = await startDiscordFake();
    discord.globalRateLimit({ limit: 2, windowMs: 400 });
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3, 4].map(() => rest.get('/users/@me')));
    expect(answers).toHaveLength(4);
    expect(discord.state.rateLimitHits.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('is off once switched off', async () => {
    discord = await startDiscordFake();
    const fake = discord;
    const limit = fake.globalRateLimit({ limit: 1, windowMs: 60_000 });
    const get = () => fetch(`${fake.apiUrl}/v10/users/@me`, { headers: { authorization: `Bot ${fake.botToken}` } });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
    limit.off();
    expect((await get()).status).toBe(200);
  });
});
