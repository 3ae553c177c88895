import { describe, expect, it } from 'vitest';
import { isConnectionReset, isPushback, isRetryableStatus, parseRetryAfter, retryDelayMs } from './retry-policy.js';

describe('retry policy', () => {
  it('retries the transient statuses only', () => {
    for (const status of [408, 429, 500, 502, 503, 504, 529]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 501]) expect(isRetryableStatus(status)).toBe(false);
  });

  it('treats 429, 529 and a 503 with retry-after as the service pushing back on everyone', () => {
    expect(isPushback(429, undefined)).toBe(true);
    expect(isPushback(529, undefined)).toBe(true);
    expect(isPushback(503, 2)).toBe(true);
    expect(isPushback(503, undefined)).toBe(false);
    expect(isPushback(500, 1)).toBe(false);
    expect(isPushback(undefined, undefined)).toBe(false);
  });

  it('reads retry-after as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(['1.5'], now)).toBe(1.5);
    expect(parseRetryAfter('Sun, 01 Nov 2026 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Sat, 31 Oct 2026 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('honours retry-after, capped', () => {
    const settings = { baseDelayMs: 500, maxDelayMs: 20_000 };
    expect(retryDelayMs(1, settings, 2)).toBe(2000);
    expect(retryDelayMs(1, settings, 0)).toBe(0);
    expect(retryDelayMs(1, settings, 3600)).toBe(20_000);
  });

  it('backs off exponentially with jitter inside [half, full]', () => {
    const settings = { baseDelayMs: 500, maxDelayMs: 20_000 };
    expect(retryDelayMs(1, settings, undefined, () => 0)).toBe(250);
    expect(retryDelayMs(1, settings, undefined, () => 1)).toBe(500);
    expect(retryDelayMs(3, settings, undefined, () => 1)).toBe(2000);
    expect(retryDelayMs(20, settings, undefined, () => 1)).toBe(20_000);
  });

  it('recognises connection resets, also as a cause', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isConnectionReset(reset)).toBe(true);
    expect(isConnectionReset(new Error('fetch failed', { cause: reset }))).toBe(true);
    expect(isConnectionReset(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }))).toBe(true);
    expect(isConnectionReset(Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }))).toBe(false);
  });
});
