import { RateLimitedError } from '@genbot/core/errors';
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DiscordCallError, discordCall, toChatError } from './discord-errors.js';

const WEBHOOK_URL = 'https://discord.com/api/v10/webhooks/1/secret-interaction-token/messages/@original';

function apiError(status: number, raw: object): DiscordAPIError {
  const code = 'code' in raw && typeof raw.code === 'number' ? raw.code : 0;
  return new DiscordAPIError(raw as never, code, status, 'PATCH', WEBHOOK_URL, { body: { content: 'hello' } });
}

describe('toChatError', () => {
  it('turns a rate limit discord.js gave up on into RateLimitedError with its wait', () => {
    const limited = new RateLimitError({
      timeToReset: 1500,
      limit: 5,
      method: 'PATCH',
      hash: 'abc',
      url: WEBHOOK_URL,
      route: '/channels/:id/messages/:id',
      majorParameter: '1',
      global: false,
      retryAfter: 1500,
      sublimitTimeout: 0,
      scope: 'user',
    });
    const mapped = toChatError(limited);
    expect(mapped).toBeInstanceOf(RateLimitedError);
    expect((mapped as RateLimitedError).retryAfterMs).toBe(1500);
  });

  it('reads retry_after (seconds) from a 429 answer', () => {
    const mapped = toChatError(
      apiError(429, { message: 'You are being rate limited.', retry_after: 0.25, global: false }),
    );
    expect(mapped).toBeInstanceOf(RateLimitedError);
    expect((mapped as RateLimitedError).retryAfterMs).toBe(250);
  });

  it('keeps status and code of other refusals but drops the URL and body', () => {
    const mapped = toChatError(apiError(403, { message: 'Missing Permissions', code: 50013 }));
    expect(mapped).toBeInstanceOf(DiscordCallError);
    expect(mapped).toMatchObject({ status: 403, code: 50013 });
    const serialized = JSON.stringify({ ...(mapped as object), message: (mapped as Error).message });
    expect(serialized).not.toContain('secret-interaction-token');
    expect(serialized).not.toContain('hello');
  });

  it('hides the URL of server errors too', () => {
    const mapped = toChatError(new HTTPError(502, 'Bad Gateway', 'POST', WEBHOOK_URL, { body: {} }));
    expect(mapped).toMatchObject({ status: 502 });
    expect((mapped as Error).message).not.toContain('secret-interaction-token');
  });

  it('passes anything else through', () => {
    const error = new TypeError('boom');
    expect(toChatError(error)).toBe(error);
  });
});

describe('discordCall', () => {
  it('returns the result or rethrows the mapped error', async () => {
    await expect(discordCall(async () => 42)).resolves.toBe(42);
    await expect(
      discordCall(() => Promise.reject(apiError(429, { message: 'slow down', retry_after: 1 }))),
    ).rejects.toBeInstanceOf(RateLimitedError);
  });
});
