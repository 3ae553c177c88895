import type { MiddlewareHandler } from 'hono';

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;

/**
 * Only this machine's browser drives the bots: a page elsewhere cannot post here (JSON needs a CORS
 * preflight nobody answers), and a rebinding DNS name is refused by its Host header. `anyHost`: the
 * server was bound to an address chosen on purpose, where other names are expected.
 */
export function localOnly(anyHost: boolean): MiddlewareHandler {
  return async (c, next) => {
    if (!anyHost && !LOOPBACK_HOST.test(c.req.header('host') ?? '')) {
      return c.json({ error: 'the playground answers on 127.0.0.1 only' }, 403);
    }
    if (c.req.method === 'POST' && !(c.req.header('content-type') ?? '').startsWith('application/json')) {
      return c.json({ error: 'send JSON (content-type: application/json)' }, 415);
    }
    return next();
  };
}
