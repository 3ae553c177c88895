import { eventually } from '@genbot/test-servers';
import { copy } from '@genbot/core/copy';
import { pngDeclaring } from '@genbot/core/testing/image-bombs';
import type { UnavailableReason } from '@genbot/core/errors';
import sharp from 'sharp';
import { expect } from 'vitest';
import {
  expectAnswerWithNotes,
  expectEdited,
  expectNothingSent,
  expectOneReply,
  expectTexts,
  expectToolRefused,
  imageRequestCount,
  lastWords,
  nthMessagesRequest,
  sentFiles,
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

/** What an image's header may declare that refuses it (its pixels or its frames). */
type ImageHeaderProblem =
  | { kind: 'pixels'; width: number; height: number; maxMegapixels: number }
  | { kind: 'frames'; frames: number; maxFrames: number };

function messagesRequestsSeen(ctx: RowContext): number {
  return ctx.requests().filter((request) => request.path.endsWith('/v1/messages')).length;
}

/** Waits without waiting for quiet: streamed replies keep changing the view. */
async function until(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  await eventually(done, { timeoutMs, what: 'the expected state' });
}

/** Asks the model to edit the image by name, whatever it saw: the tool must refuse it on its own. */
const FORCED_EDIT = 'make it grayscale [tool:edit_image {"instruction": "make it grayscale"}]';

/**
 * An image bomb never reaches the service: the model gets a note instead of
 * it, and an edit of it asked for anyway is refused before anything is sent
 * to generate-content.
 */
function bombRow(name: string, file: () => Promise<Uint8Array>, problem: ImageHeaderProblem): Row {
  return {
    name,
    async run(ctx) {
      await ctx.platform.mention(ctx.channel, FORCED_EDIT, {
        name: 'bomb.png',
        bytes: await file(),
        contentType: 'image/png',
      });
      const reason =
        problem.kind === 'pixels'
          ? copy.tooManyPixels(problem.width, problem.height, problem.maxMegapixels)
          : copy.tooManyFrames(problem.frames, problem.maxFrames);
      const note = copy.modelFileNote({ name: 'bomb.png', reason: 'image_refused', problem }) ?? '';
      await expectToolRefused(ctx, copy.unsupportedImage('bomb.png', reason), [note]);
      for (const request of messagesRequests(ctx.requests())) expect(sentFiles(request)).toEqual([]);
    },
  };
}

export const edgeFaultRows: Row[] = [
  bombRow(
    'image bomb: a PNG of a few hundred bytes declaring 50,000 × 50,000 pixels never reaches the service, an edit of it is refused',
    async () => pngDeclaring(50_000, 50_000),
    { kind: 'pixels', width: 50_000, height: 50_000, maxMegapixels: 40 },
  ),
  bombRow(
    'image bomb: a GIF of 150 frames never reaches the service, an edit of it is refused',
    () => gifWithFrames(150),
    { kind: 'frames', frames: 150, maxFrames: 100 },
  ),
  {
    name: 'attachment download redirected to a metadata address: refused, never fetched, a note, nothing sent to generate-content',
    async run(ctx) {
      const off = ctx.platform.redirectDownloads('http://169.254.169.254/latest/meta-data/iam/');
      try {
        await ctx.platform.mention(ctx.channel, 'make it grayscale', { name: 'poster.png', bytes: await colourPng() });
        const request = await expectAnswerWithNotes(ctx, [copy.fileUnavailable('poster.png', 'external')]);
        expect(sentFiles(request)).toEqual([]);
      } finally {
        off();
      }
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
    name: 'Slack Connect file (file_access: check_file_info): looked up with files.info, then edited by the model',
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
      name: `file ${what}: the conversation answers with a note, nothing sent to generate-content`,
      only: 'slack',
      async run(ctx) {
        await slackFileRow(ctx, access);
        const name = access === 'external' ? 'poster.png' : 'the file';
        const note = copy.fileUnavailable(name, reason as Exclude<UnavailableReason, 'too_large'>);
        expect(sentFiles(await expectAnswerWithNotes(ctx, [note]))).toEqual([]);
      },
    }),
  ),
  {
    name: 'Slack answers its sign-in page instead of the file (files:read missing): said so in a note, tried once, nothing sent to generate-content',
    only: 'slack',
    async run(ctx) {
      // Only the first download is refused: a retry would get the file, and the model would see it and edit it.
      const off = ctx.platform.h.slack.failDownloads({ status: 200, times: 1 });
      try {
        await ctx.platform.mention(ctx.channel, 'make it grayscale', { name: 'poster.png', bytes: await colourPng() });
        const request = await expectAnswerWithNotes(ctx, [copy.fileUnavailable('poster.png', 'not_allowed')]);
        expect(sentFiles(request)).toEqual([]);
      } finally {
        off();
      }
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
    name: 'attachment without content_type or extension: recognised from its bytes, seen by the model and edited',
    only: 'discord',
    async run(ctx) {
      const { h } = ctx.platform;
      h.fake.userSays({
        user: 'ada',
        channelId: ctx.channel,
        content: `${h.mention} make it grayscale`,
        attachments: [{ filename: 'poster', contentType: null, bytes: await colourPng() }],
      });
      await expectEdited(ctx, 'make it grayscale');
      expect(sentFiles(await nthMessagesRequest(ctx, 1)).map((block) => block.type)).toEqual(['image']);
    },
  },
  {
    name: 'an expired attachment link (404 once): the message is fetched again, the image seen and edited',
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
        texts: lastWords(ctx, copy.imagineDone('a wide beach', { uploaded: 1, tooLarge: 0 })),
        uploads: [{ comment: copy.imageComment('a wide beach') }],
      });
    },
  },
];
