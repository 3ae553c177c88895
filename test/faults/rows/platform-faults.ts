import { copy } from '@genbot/core/copy';
import { MAX_INLINE_IMAGE_BYTES } from '@genbot/core/genai';
import sharp from 'sharp';
import { expect } from 'vitest';
import {
  expectAnswerWithNotes,
  expectImages,
  expectOneReply,
  expectTexts,
  expectToolRefused,
  imageRequestCount,
  sentFiles,
} from '../support/expect-view.js';
import type { PlatformFault } from '../support/platform.js';
import type { Row, RowContext } from '../support/row.js';

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

/**
 * A mention carrying `attachment` with an edit instruction whose model asks
 * to edit it (by a forced call when the model could not see it as an image):
 * the edit is refused as `refusal` says, and nothing is sent to
 * generate-content.
 */
function refusedAttachment(
  name: string,
  attachment: () => Promise<{ name: string; bytes: Uint8Array; contentType?: string }>,
  refusal: {
    /** The model sees the image, so it asks for the edit itself. */
    seen: boolean;
    /** What genbot tells the person about the edit, if anything (an edit of no image is the model's to explain). */
    told: (fileName: string) => string | undefined;
    /** The notes that end the reply: files the model could not read. */
    notes: (fileName: string) => string[];
  },
): Row {
  return {
    name,
    async run(ctx) {
      const file = await attachment();
      const ask = refusal.seen
        ? 'make it grayscale'
        : 'make it grayscale [tool:edit_image {"instruction": "make it grayscale"}]';
      await ctx.platform.mention(ctx.channel, ask, file);
      await expectToolRefused(ctx, refusal.told(file.name), refusal.notes(file.name));
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
      name: `attachment download answers ${status} every time: a note saying why, the conversation still answers, nothing sent to generate-content`,
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
          const request = await expectAnswerWithNotes(ctx, [expected]);
          expect(sentFiles(request)).toEqual([]);
        }),
    }),
  ),
  refusedAttachment(
    'oversized image attachment: seen by the model, its edit refused before anything is sent to generate-content',
    async () => {
      const png = await colourPng();
      const bytes = new Uint8Array(MAX_INLINE_IMAGE_BYTES + 1024 * 1024);
      bytes.set(png);
      return { name: 'huge.png', bytes, contentType: 'image/png' };
    },
    {
      seen: true,
      told: (name) =>
        copy.unsupportedImage(name, copy.tooLargeReason(MAX_INLINE_IMAGE_BYTES + 1024 * 1024, MAX_INLINE_IMAGE_BYTES)),
      notes: () => [],
    },
  ),
  refusedAttachment(
    'a PDF with an edit instruction: read as a document, never edited, nothing sent to generate-content',
    async () => ({
      name: 'report.pdf',
      bytes: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n'),
      contentType: 'application/pdf',
    }),
    { seen: false, told: () => undefined, notes: () => [] },
  ),
  refusedAttachment(
    'attachment named .png that is no image: read as text, its edit refused, nothing sent to generate-content',
    async () => ({ name: 'photo.png', bytes: Buffer.from('just some text, not pixels\n') }),
    { seen: false, told: (name) => copy.notAnImage(name), notes: () => [] },
  ),
  refusedAttachment(
    'a TIFF: never offered for an edit, a note, nothing sent to generate-content',
    async () => ({
      name: 'scan.tiff',
      bytes: Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]),
      contentType: 'image/tiff',
    }),
    {
      seen: false,
      told: () => undefined,
      notes: (name) => [copy.modelFileNote({ name, reason: 'unsupported' }) ?? ''],
    },
  ),
];
