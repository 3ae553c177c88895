import { Hono } from 'hono';
import type { FakeContext } from '../context.js';
import { DiscordHttpError } from '../errors.js';
import { compareIds } from '../guild-state.js';
import { editMessage, postMessage } from '../message-ops.js';
import { readRequestBody } from '../multipart.js';
import { historyQuerySchema, messagePayloadSchema, parseBody } from '../schemas.js';
import { wireMessage } from '../wire.js';
import { channelOr404, messageOr404 } from './lookup.js';

/** Channel messages as the bot sees them: post (JSON or multipart), read, history, edit, react, delete. */
export function messageRoutes(ctx: FakeContext): Hono {
  return new Hono()
    .post('/channels/:channelId/messages', async (c) => {
      const channel = channelOr404(ctx, c.req.param('channelId'));
      const body = await readRequestBody(c.req.raw, ctx.attachmentSizeLimit);
      const payload = parseBody(messagePayloadSchema, body.payload);
      const message = postMessage(ctx, {
        channelId: channel.id,
        author: ctx.state.botUser,
        payload,
        files: body.files,
      });
      return c.json(wireMessage(message, ctx.state));
    })
    .get('/channels/:channelId/messages', (c) => {
      const channel = channelOr404(ctx, c.req.param('channelId'));
      const query = parseBody(historyQuerySchema, c.req.query());
      return c.json(history(ctx, channel.id, query).map((message) => wireMessage(message, ctx.state)));
    })
    .get('/channels/:channelId/messages/:messageId', (c) => {
      const message = messageOr404(ctx, c.req.param('channelId'), c.req.param('messageId'));
      return c.json(wireMessage(message, ctx.state));
    })
    .patch('/channels/:channelId/messages/:messageId', async (c) => {
      const message = messageOr404(ctx, c.req.param('channelId'), c.req.param('messageId'));
      if (message.author.id !== ctx.state.botUser.id) {
        throw new DiscordHttpError(403, 50005, 'Cannot edit a message authored by another user');
      }
      const body = await readRequestBody(c.req.raw, ctx.attachmentSizeLimit);
      const payload = parseBody(messagePayloadSchema, body.payload);
      return c.json(wireMessage(editMessage(ctx, message, payload, body.files), ctx.state));
    })
    .put('/channels/:channelId/messages/:messageId/reactions/:emoji/@me', (c) => {
      const message = messageOr404(ctx, c.req.param('channelId'), c.req.param('messageId'));
      // Hono hands the path segment over still percent-encoded, as discord.js sent it.
      const emoji = decodeURIComponent(c.req.param('emoji'));
      if (!message.botReactions.includes(emoji)) message.botReactions.push(emoji);
      return c.body(null, 204);
    })
    .delete('/channels/:channelId/messages/:messageId', (c) => {
      const message = messageOr404(ctx, c.req.param('channelId'), c.req.param('messageId'));
      ctx.state.deleteMessage(message);
      ctx.events.messageDelete(message);
      return c.body(null, 204);
    });
}

/** Discord's history order: newest first, `limit` of them around/before/after a message. */
function history(
  ctx: FakeContext,
  channelId: string,
  query: { limit: number; before?: string | undefined; after?: string | undefined; around?: string | undefined },
) {
  const newestFirst = [...ctx.state.messages(channelId)].reverse();
  if (query.before !== undefined) {
    const before = query.before;
    return newestFirst.filter((message) => compareIds(message.id, before) < 0).slice(0, query.limit);
  }
  if (query.after !== undefined) {
    const after = query.after;
    return newestFirst.filter((message) => compareIds(message.id, after) > 0).slice(-query.limit);
  }
  if (query.around !== undefined) {
    const index = newestFirst.findIndex((message) => compareIds(message.id, query.around ?? '0') <= 0);
    const start = Math.max(0, (index < 0 ? newestFirst.length : index) - Math.floor(query.limit / 2));
    return newestFirst.slice(start, start + query.limit);
  }
  return newestFirst.slice(0, query.limit);
}
