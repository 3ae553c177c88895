import { copy } from '@genbot/core/copy';
import { MAX_INLINE_IMAGE_BYTES } from '@genbot/core/genai';
import sharp from 'sharp';
import { expect } from 'vitest';
import {
  expectImages,
  expectNothingSent,
  expectOneReply,
  expectTexts,
  imageRequestCount,
} from '../support/expect-view.js';
import type { PlatformFault } from '../support/platform.js';
import type { Row, RowContext } from '../support/row.js';
import { settled } from '../support/settle.js';

function colourPng(): Promise<Buffer> {
  return sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 210, g: 60, b: 30 } } })
    .png()
    .toBuffer();
}

/** Runs `act` with a platform fault switched on, and off again whatever happens. */
async function withFault(off: () => void, act: () => Promise<void>): Promise<void> {
  try {
    await act();
  } finally {
    off();
  }
}

function rateLimitRow(kind: PlatformFault, act: (ctx: RowContext) => Promise<void>): Row {
  return {
    name: `platform 429 on the bot's ${kind}: delivered exactly once`,
    async run(ctx) {
      const hits = ctx.platform.rateLimitHitCount();
      await withFault(ctx.platform.rateLimitNext(kind), () => act(ctx));
      expect(ctx.platform.rateLimitHitCount()).toBeGreaterThan(hits);
    },
  };
}

/** A mention carrying `attachment` is answered with `answer`, and the service is never asked. */
function refusedAttachment(
  name: string,
  attachment: () => Promise<{ name: string; bytes: Uint8Array; contentType?: string }>,
  answer: (fileName: string) => RegExp | string,
): Row {
  return {
    name,
    async run(ctx) {
      const file = await attachment();
      await ctx.platform.mention(ctx.channel, 'make it grayscale', file);
      const expected = answer(file.name);
      if (typeof expected === 'string') {
        await expectTexts(ctx, [expected]);
      } else {
        const view = await settled(
          ctx.platform,
          ctx.channel,
          (v) => v.texts.length === 1 && expected.test(v.texts[0] ?? ''),
        );
        expect(view.uploads).toEqual([]);
      }
      expectNothingSent(ctx);
    },
  };
}

export const platformFaultRows: Row[] = [
  rateLimitRow('post', async (ctx) => {
    await ctx.platform.mention(ctx.channel, 'say hello to the harbour');
    await expectOneReply(ctx, 'complete');
  }),
  rateLimitRow('edit', async (ctx) => {
    await ctx.platform.mention(ctx.channel, 'describe a harbour [len:700] [delay:60]');
    await expectOneReply(ctx, 'complete', 30_000);
  }),
  rateLimitRow('upload', async (ctx) => {
    await ctx.platform.imagine(ctx.channel, 'a lighthouse at dusk');
    await expectImages(ctx, 'a lighthouse at dusk', 1);
  }),
  {
    name: 'upload refused once: the images arrive once, no duplicate',
    run: (ctx) =>
      withFault(ctx.platform.failUploads(1), async () => {
        await ctx.platform.imagine(ctx.channel, 'a paper boat');
        await expectImages(ctx, 'a paper boat', 1);
      }),
  },
  {
    name: 'upload refused every time: a short human line, no images',
    run: (ctx) =>
      withFault(ctx.platform.failUploads(), async () => {
        await ctx.platform.imagine(ctx.channel, 'a glass bottle');
        await expectTexts(ctx, [copy.uploadFailed], 30_000);
        expect(imageRequestCount(ctx)).toBe(1);
      }),
  },
  ...([404, 403] as const).map(
    (status): Row => ({
      name: `attachment download answers ${status} every time: a short human line saying why, nothing sent`,
      run: (ctx) =>
        withFault(ctx.platform.failDownloads(status), async () => {
          await ctx.platform.mention(ctx.channel, 'make it grayscale', {
            name: 'poster.png',
            bytes: await colourPng(),
          });
          // Slack: a refusal is the files:read scope, a 404 a file gone; neither is tried again. Discord:
          // the message is fetched again for a fresh link, and a link that still fails may work later.
          const expected =
            ctx.platform.name === 'discord'
              ? copy.downloadFailed('poster.png')
              : copy.fileUnavailable('poster.png', status === 403 ? 'not_allowed' : 'deleted');
          await expectTexts(ctx, [expected], 30_000);
          expectNothingSent(ctx);
        }),
    }),
  ),
  refusedAttachment(
    'oversized image attachment: refused before anything is sent',
    async () => {
      const png = await colourPng();
      const bytes = new Uint8Array(MAX_INLINE_IMAGE_BYTES + 1024 * 1024);
      bytes.set(png);
      return { name: 'huge.png', bytes, contentType: 'image/png' };
    },
    (name) =>
      new RegExp(`^${escapeRegExp(copy.unsupportedImage(name, ''))}.*${MAX_INLINE_IMAGE_BYTES / 1024 / 1024}\\.0 MiB`),
  ),
  refusedAttachment(
    'non-image attachment: refused, nothing sent',
    async () => ({
      name: 'report.pdf',
      bytes: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n'),
      contentType: 'application/pdf',
    }),
    (name) => copy.notAnImage(name),
  ),
  refusedAttachment(
    'attachment named .png that is no image: refused, nothing sent',
    async () => ({ name: 'photo.png', bytes: Buffer.from('just some text, not pixels\n') }),
    (name) => copy.notAnImage(name),
  ),
  refusedAttachment(
    'a TIFF: never offered for an edit, nothing sent',
    async () => ({
      name: 'scan.tiff',
      bytes: Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]),
      contentType: 'image/tiff',
    }),
    (name) => copy.notAnImage(name),
  ),
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
