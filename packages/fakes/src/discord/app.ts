import { Hono } from 'hono';
import type { FakeContext } from './context.js';
import { DiscordHttpError } from './errors.js';
import { cdnRoutes } from './rest/cdn.js';
import { channelRoutes } from './rest/channels.js';
import { commandRoutes } from './rest/commands.js';
import { interactionRoutes } from './rest/interactions.js';
import { messageRoutes } from './rest/messages.js';
import { type GatewayBotAdvice, metaRoutes } from './rest/meta.js';

export const API_PREFIX = '/api/v10';

/** Routes authenticated by their token in the path rather than the Authorization header. */
const TOKEN_IN_PATH = /^\/api\/v10\/(interactions|webhooks)\//;

/** The REST API and CDN: authentication, per-route rate limits, routes, Discord-shaped errors. */
export function createApp(
  ctx: FakeContext,
  options: { allowMessageContentIntent: boolean; gatewayBot: GatewayBotAdvice },
): Hono {
  const app = new Hono();

  app.use(`${API_PREFIX}/*`, async (c, next) => {
    if (!TOKEN_IN_PATH.test(c.req.path) && c.req.header('authorization') !== `Bot ${ctx.botToken}`) {
      return c.json({ message: '401: Unauthorized', code: 0 }, 401);
    }
    const path = c.req.path.slice(API_PREFIX.length);
    if (!TOKEN_IN_PATH.test(c.req.path)) ctx.state.botRequests.push({ method: c.req.method, path });
    // Interaction callbacks and follow-ups are outside the bot's global limit, as on Discord.
    const globalWait = TOKEN_IN_PATH.test(c.req.path) ? undefined : ctx.rateLimits.takeGlobal();
    if (globalWait !== undefined) {
      ctx.state.rateLimitHits.push({ method: c.req.method, path, route: 'global', at: ctx.now() });
      ctx.logger.debug({ method: c.req.method, path, retryAfter: globalWait }, 'global rate limit: 429');
      return c.json({ message: 'You are being rate limited.', retry_after: globalWait, global: true }, 429, {
        'Retry-After': String(Math.ceil(globalWait)),
        'X-RateLimit-Global': 'true',
        'X-RateLimit-Scope': 'global',
      });
    }
    const decision = ctx.rateLimits.take(c.req.method, path);
    if (decision?.retryAfter !== undefined) {
      ctx.state.rateLimitHits.push({ method: c.req.method, path, route: decision.route, at: ctx.now() });
      ctx.logger.debug({ method: c.req.method, path, retryAfter: decision.retryAfter }, 'rate limited: 429');
      return c.json({ message: 'You are being rate limited.', retry_after: decision.retryAfter, global: false }, 429, {
        ...decision.headers,
        'Retry-After': String(Math.ceil(decision.retryAfter)),
        'X-RateLimit-Scope': 'user',
      });
    }
    if (
      (c.req.header('content-type') ?? '').startsWith('multipart/form-data') &&
      ctx.uploadFaults.take() !== undefined
    ) {
      // Read the upload first: answering mid-body would look like a dropped connection, not a refusal.
      await c.req.raw.arrayBuffer();
      ctx.logger.debug({ method: c.req.method, path }, 'upload refused: 413');
      throw new DiscordHttpError(413, 40005, 'Request entity too large');
    }
    await next();
    for (const [name, value] of Object.entries(decision?.headers ?? {})) c.res.headers.set(name, value);
  });

  for (const routes of [
    metaRoutes(ctx, options.allowMessageContentIntent, options.gatewayBot),
    messageRoutes(ctx),
    channelRoutes(ctx),
    interactionRoutes(ctx),
    commandRoutes(ctx),
  ]) {
    app.route(API_PREFIX, routes);
  }
  app.route('/', cdnRoutes(ctx));

  app.notFound((c) => c.json({ message: '404: Not Found', code: 0 }, 404));
  app.onError((error, c) => {
    if (error instanceof DiscordHttpError) {
      ctx.state.refusals.push({ method: c.req.method, status: error.status, code: error.code, at: ctx.now() });
      return c.json(error.toJSON(), error.status);
    }
    ctx.logger.error({ err: error, method: c.req.method, path: c.req.path }, 'discord fake: handler failed');
    return c.json({ message: '500: Internal Server Error', code: 0 }, 500);
  });
  return app;
}
