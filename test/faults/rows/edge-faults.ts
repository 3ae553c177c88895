import { eventually } from '@genbot/test-servers';
import { copy } from '@genbot/core/copy';
import { pngDeclaring } from '@genbot/core/testing/image-bombs';
import type { UnavailableReason } from '@genbot/core/errors';
import sharp from 'sharp';
import { expect } from 'vitest';
import {
  expectNothingSent,
  expectOneReply,
  expectTexts,
  imageRequestCount,
  lastWords,
  sameTexts,
} from '../support/expect-view.js';
import { generateContentRequests, messagesRequests } from '../support/oracle.js';
import type { Row, RowContext } from '../support/row.js';
import type { SlackPlatform } from '../support/slack-platform.js';
import { beforeMarker, settled } from '../support/settle.js';

/**
 * Bad files and hostile file hosts at the platform edge: image bombs,
 * redirects off the platform, files the platform will not hand over, and the
 * attachment shapes Slack and Discord really send.
 */

function colourPng(): Promise<Buffer> {
  return sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 210, g: 60, b: 30 } } })
    .png()
    .toBuffer();
}

/** An animated GIF of `frames` 4 × 4 frames, alternating black and white so none merge. */
async function gifWithFrames(frames: number): Promise<Buffer> {
  const size = 4 * 4 * 3;
  const raw = Buffer.alloc(size * frames);
  for (let frame = 0; frame < frames; frame += 1) raw.fill(frame % 2 === 0 ? 255 : 0, frame * size, (frame + 1) * size);
  return sharp(raw, { raw: { width: 4, height: 4 * frames, channels: 3, pageHeight: 4 } })
    .gif()
    .toBuffer();
}

const BUSY = '⏳ You already have requests on the way.';

function messagesRequestsSeen(ctx: RowContext): number {
  return ctx.requests().filter((request) => request.path.endsWith('/v1/messages')).length;
}

/** Waits without waiting for quiet: streamed replies keep changing the view. */
async function until(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  await eventually(done, { timeoutMs, what: 'the expected state' });
}

/** The edited image arrives in the row's channel (one upload of one image), and the service got the source. */
async function expectEdited(ctx: RowContext, instruction: string): Promise<void> {
  const done = lastWords(ctx, copy.editDone(instruction, { uploaded: 1, tooLarge: 0 }), 'mention');
  const view = await settled(
    ctx.platform,
    ctx.channel,
    (v) => v.uploads.length === 1 && sameTexts(v.texts, done),
    30_000,
  );
  expect(view.texts).toEqual(done);
  expect(imageRequestCount(ctx)).toBe(1);
}

function bombRow(name: string, file: () => Promise<Buffer>, reason: string): Row {
  return {
    name,
    async run(ctx) {
      await ctx.platform.mention(ctx.channel, 'make it grayscale', {
        name: 'bomb.png',
        bytes: await file(),
        contentType: 'image/png',
      });
      await expectTexts(ctx, [copy.unsupportedImage('bomb.png', reason)], 30_000);
      expectNothingSent(ctx);
    },
  };
}

export const edgeFaultRows: Row[] = [
  bombRow(
    'image bomb: a PNG of a few hundred bytes declaring 50,000 × 50,000 pixels is refused before anything is sent',
    async () => Buffer.from(pngDeclaring(50_000, 50_000)),
    copy.tooManyPixels(50_000, 50_000, 40),
  ),
  bombRow(
    'image bomb: a GIF of 150 frames is refused before anything is sent',
    () => gifWithFrames(150),
    copy.tooManyFrames(150, 100),
  ),
  {
    name: 'attachment download redirected to a metadata address: refused, never fetched, nothing sent',
    async run(ctx) {
      const off = ctx.platform.redirectDownloads('http://169.254.169.254/latest/meta-data/iam/');
      try {
        await ctx.platform.mention(ctx.channel, 'make it grayscale', { name: 'poster.png', bytes: await colourPng() });
        await expectTexts(ctx, [copy.fileUnavailable('poster.png', 'external')], 30_000);
      } finally {
        off();
      }
      expectNothingSent(ctx);
    },
  },
  {
    name: 'a mention over the user’s share: one short answer, no placeholder, nothing sent for it',
    async run(ctx) {
      // Two long replies hold the user's two places; the third mention is turned away at once.
      await ctx.platform.mention(ctx.channel, 'tell me a long story [len:600] [delay:100]');
      await ctx.platform.mention(ctx.channel, 'and another long one [len:600] [delay:100]');
      await until(() => messagesRequestsSeen(ctx) === 2);
      await ctx.platform.mention(ctx.channel, 'and one more');
      await until(() => ctx.platform.view(ctx.channel).texts.some((text) => text.startsWith(BUSY)));
      // Both long replies end complete: the user's places are free again for the next rows.
      const answers = await Promise.all(messagesRequests(ctx.requests()).map((request) => ctx.oracle.reply(request)));
      await settled(
        ctx.platform,
        ctx.channel,
        (v) => v.texts.length === 3 && answers.every((answer) => v.texts.includes(answer)),
        60_000,
      );
      const versions = ctx.platform.allVersions(ctx.channel);
      // The refusal is a message of its own, never a placeholder turned into it.
      expect(versions.filter((text) => text.startsWith(BUSY))).toHaveLength(1);
      expect(versions.filter((text) => /Thinking/.test(text)).length).toBeLessThanOrEqual(2);
      expect(messagesRequestsSeen(ctx)).toBe(2);
    },
  },
];

async function slackFileRow(ctx: RowContext<SlackPlatform>, access: 'hidden_by_limit' | 'tombstone' | 'external') {
  await ctx.platform.h.slack.userSays({
    user: 'U1',
    channel: ctx.channel,
    text: `<@${ctx.platform.botUserId}> make it grayscale`,
    files: [{ name: 'poster.png', bytes: await colourPng(), access }],
  });
}

const SLACK_UNAVAILABLE: Array<['hidden_by_limit' | 'tombstone' | 'external', string, UnavailableReason]> = [
  ['hidden_by_limit', 'hidden by the plan’s file history limit', 'hidden_by_limit'],
  ['tombstone', 'deleted (tombstone)', 'deleted'],
  ['external', 'stored outside Slack', 'external'],
];

export const slackEdgeRows: Row[] = [
  {
    name: 'Slack Connect file (file_access: check_file_info): looked up with files.info, then edited',
    only: 'slack',
    async run(ctx) {
      const { slack } = ctx.platform.h;
      const since = slack.calls.length;
      await slack.userSays({
        user: 'U1',
        channel: ctx.channel,
        text: `<@${ctx.platform.botUserId}> make it grayscale`,
        files: [{ name: 'poster.png', bytes: await colourPng(), access: 'check_file_info' }],
      });
      await expectEdited(ctx, 'make it grayscale');
      expect(slack.calls.slice(since).some((call) => call.method === 'files.info')).toBe(true);
    },
  },
  ...SLACK_UNAVAILABLE.map(
    ([access, what, reason]): Row => ({
      name: `file ${what}: a short answer, nothing sent`,
      only: 'slack',
      async run(ctx) {
        await slackFileRow(ctx, access);
        const name = access === 'external' ? 'poster.png' : 'the file';
        await expectTexts(ctx, [copy.fileUnavailable(name, reason as Exclude<UnavailableReason, 'too_large'>)]);
        expectNothingSent(ctx);
      },
    }),
  ),
  {
    name: 'Slack answers its sign-in page instead of the file (files:read missing): said so, tried once, nothing sent',
    only: 'slack',
    async run(ctx) {
      // Only the first download is refused: a retry would get the file and edit it.
      const off = ctx.platform.h.slack.failDownloads({ status: 200, times: 1 });
      try {
        await ctx.platform.mention(ctx.channel, 'make it grayscale', { name: 'poster.png', bytes: await colourPng() });
        await expectTexts(ctx, [copy.fileUnavailable('poster.png', 'not_allowed')], 30_000);
      } finally {
        off();
      }
      expectNothingSent(ctx);
    },
  },
  {
    name: 'a slash command that is not ours: a short private answer',
    only: 'slack',
    async run(ctx) {
      const run = await ctx.platform.h.slack.userRunsCommand({
        user: 'U1',
        channel: ctx.channel,
        command: '/hello-world',
        text: 'Hi',
      });
      expect(run.delivery.attempts[0]).toMatchObject({ acked: true });
      await expectTexts(ctx, [copy.unknownCommand('/hello-world')]);
      expectNothingSent(ctx);
    },
  },
];

export const discordEdgeRows: Row[] = [
  {
    name: 'attachment without content_type or extension: recognised from its bytes and edited',
    only: 'discord',
    async run(ctx) {
      const { h } = ctx.platform;
      h.fake.userSays({
        user: 'ada',
        channelId: ctx.channel,
        content: `${h.mention} make it grayscale`,
        attachments: [{ filename: 'poster', contentType: null, bytes: await colourPng() }],
      });
      await settled(ctx.platform, ctx.channel, (v) => v.uploads.length === 1 && sameTexts(v.texts, []), 30_000);
      expect(imageRequestCount(ctx)).toBe(1);
    },
  },
  {
    name: 'an expired attachment link (404 once): the message is fetched again and the image edited',
    only: 'discord',
    async run(ctx) {
      const off = ctx.platform.failDownloads(404, 1);
      try {
        await ctx.platform.mention(ctx.channel, 'make it grayscale', { name: 'poster.png', bytes: await colourPng() });
        await expectEdited(ctx, 'make it grayscale');
      } finally {
        off();
      }
    },
  },
  ...(['a voice message', 'an ephemeral attachment'] as const).map(
    (kind): Row => ({
      name: `${kind} is never an image source: the mention is a conversation`,
      only: 'discord',
      async run(ctx) {
        const { h } = ctx.platform;
        const png = await colourPng();
        h.fake.userSays({
          user: 'ada',
          channelId: ctx.channel,
          content: `${h.mention} what do you hear?`,
          attachments: [
            kind === 'a voice message'
              ? { filename: 'voice-message.png', bytes: png, voice: { durationSecs: 2.5, waveform: 'AAAA' } }
              : { filename: 'poster.png', bytes: png, ephemeral: true },
          ],
        });
        await expectOneReply(ctx, 'complete');
        expect(imageRequestCount(ctx)).toBe(0);
      },
    }),
  ),
  {
    name: '/imagine with --ar 16:9 typed in the prompt: read as the aspect ratio, not sent as text',
    only: 'discord',
    async run(ctx) {
      await ctx.platform.imagine(ctx.channel, 'a wide beach --ar 16:9');
      await settled(ctx.platform, ctx.channel, (v) => v.uploads.length === 1, 30_000);
      const [request] = generateContentRequests(ctx.requests());
      const body = JSON.stringify(request?.body);
      expect(body).toContain('16:9');
      expect(body).not.toContain('--ar');
      expect((await beforeMarker(ctx)).view).toMatchObject({
        texts: lastWords(ctx, copy.imagineDone('a wide beach', { uploaded: 1, tooLarge: 0 }), 'imagine'),
        uploads: [{ comment: copy.imageComment('a wide beach') }],
      });
    },
  },
];
