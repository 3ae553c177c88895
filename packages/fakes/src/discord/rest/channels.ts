import { Hono } from 'hono';
import type { FakeContext } from '../context.js';
import { readRequestBody } from '../multipart.js';
import { parseBody, threadFromMessageSchema, threadSchema } from '../schemas.js';
import { createThread } from '../thread-ops.js';
import { wireChannel } from '../wire.js';
import { channelOr404, messageOr404 } from './lookup.js';

/** Channel reads, the typing indicator, and threads (from a message or on their own). */
export function channelRoutes(ctx: FakeContext): Hono {
  return new Hono()
    .get('/channels/:channelId', (c) => c.json(wireChannel(channelOr404(ctx, c.req.param('channelId')), ctx.state)))
    .post('/channels/:channelId/typing', (c) => {
      channelOr404(ctx, c.req.param('channelId'));
      return c.body(null, 204);
    })
    .post('/channels/:channelId/messages/:messageId/threads', async (c) => {
      const message = messageOr404(ctx, c.req.param('channelId'), c.req.param('messageId'));
      const body = parseBody(threadFromMessageSchema, (await readRequestBody(c.req.raw, 0)).payload);
      const thread = createThread(ctx, {
        parentId: message.channelId,
        name: body.name,
        ownerId: ctx.state.botUser.id,
        fromMessageId: message.id,
        autoArchiveDuration: body.auto_archive_duration ?? undefined,
      });
      return c.json(wireChannel(thread, ctx.state), 201);
    })
    .post('/channels/:channelId/threads', async (c) => {
      const parent = channelOr404(ctx, c.req.param('channelId'));
      const body = parseBody(threadSchema, (await readRequestBody(c.req.raw, 0)).payload);
      const thread = createThread(ctx, {
        parentId: parent.id,
        name: body.name,
        ownerId: ctx.state.botUser.id,
        autoArchiveDuration: body.auto_archive_duration ?? undefined,
      });
      return c.json(wireChannel(thread, ctx.state), 201);
    });
}
