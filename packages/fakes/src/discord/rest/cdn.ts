import { Hono } from 'hono';
import type { FakeContext } from '../context.js';

/** Attachment downloads: public like Discord's CDN URLs, 404 for anything unknown. */
export function cdnRoutes(ctx: FakeContext): Hono {
  return new Hono().get('/attachments/:channelId/:attachmentId/:filename', (c) => {
    const fault = ctx.attachmentFaults.get(c.req.param('attachmentId'))?.take() ?? ctx.downloadFaults.take();
    if (fault !== undefined) return c.text(fault.status === 404 ? 'Not Found' : `Error ${fault.status}`, fault.status);
    const redirect = ctx.downloadRedirects.take();
    if (redirect !== undefined) return c.redirect(redirect.location, 302);
    // Unsigned, tampered or expired links are gone for the CDN, whatever the file.
    if (!ctx.state.cdn.verify(new URL(c.req.url).pathname, c.req.query())) {
      return c.text('This content is no longer available.', 404);
    }
    const attachment = ctx.state.findAttachment(c.req.param('channelId'), c.req.param('attachmentId'));
    if (!attachment || attachment.filename !== c.req.param('filename')) return c.text('Not Found', 404);
    return c.body(new Uint8Array(attachment.bytes), 200, {
      'Content-Type': attachment.contentType,
      'Content-Length': String(attachment.size),
    });
  });
}
