import { copy } from '@genbot/core/copy';
import { expect } from 'vitest';
import { expectImagineOutcome, expectOneReply, imageRequestCount } from '../support/expect-view.js';
import { messagesRequests } from '../support/oracle.js';
import type { Row } from '../support/row.js';

const STATUS_FAULTS = ['429', '500', '503', '529'] as const;

/** Faults of the content-generation service, chosen per request by a directive in the prompt. */
function mentionRows(): Row[] {
  const statusRows = STATUS_FAULTS.flatMap((status): Row[] => [
    {
      name: `service ${status} on a mention, every attempt: one short human reply`,
      async run(ctx) {
        await ctx.platform.mention(ctx.channel, `how deep is the sea? [fault:${status}]`);
        await expectOneReply(ctx, 'failure');
      },
    },
    {
      name: `service ${status} on a mention, first attempt only: the full reply, once`,
      async run(ctx) {
        await ctx.platform.mention(ctx.channel, `how tall is a lighthouse? [fault:${status}*1]`);
        await expectOneReply(ctx, 'complete');
        expect(messagesRequests(ctx.requests()).length).toBe(2);
      },
    },
  ]);
  return [
    ...statusRows,
    {
      name: 'error event mid-stream: the text so far and a short human line',
      async run(ctx) {
        await ctx.platform.mention(ctx.channel, `explain tides [fault:stream-error]`);
        await expectOneReply(ctx, 'failure');
      },
    },
    {
      name: 'stream cut mid-way: the text so far and a short human line',
      async run(ctx) {
        await ctx.platform.mention(ctx.channel, `explain currents [fault:stream-cut]`);
        await expectOneReply(ctx, 'failure');
      },
    },
    {
      name: 'slow first byte on a mention: the full reply, once',
      async run(ctx) {
        await ctx.platform.mention(ctx.channel, `take your time [fault:slow=1500]`);
        await expectOneReply(ctx, 'complete');
      },
    },
    {
      name: 'safety refusal on a mention: a short human line',
      async run(ctx) {
        await ctx.platform.mention(ctx.channel, `something forbidden [fault:safety]`);
        await expectOneReply(ctx, 'failure');
      },
    },
    {
      name: 'safety stop after some text on a mention: the text and a short note',
      async run(ctx) {
        await ctx.platform.mention(ctx.channel, `something borderline [fault:safety-stop] [len:300]`);
        const request = await expectOneReply(ctx, 'failure');
        // The text the model gave before it stopped, then the note.
        const [shown = ''] = ctx.platform.view(ctx.channel).texts;
        expect(shown.endsWith(`\n\n${copy.replySafetyStop}`)).toBe(true);
        expect(shown.length).toBeGreaterThan(copy.replySafetyStop.length + 50);
        expect(messagesRequests(ctx.requests())).toEqual([request]);
      },
    },
    {
      name: "a gateway's stream, usage only at its end: the full reply, once",
      async run(ctx) {
        await ctx.platform.mention(ctx.channel, `count the stars [usage:late]`);
        await expectOneReply(ctx, 'complete');
      },
    },
  ];
}

function imagineRows(): Row[] {
  const statusRows = STATUS_FAULTS.flatMap((status): Row[] => [
    {
      name: `service ${status} on /imagine, every attempt: a short human line, no images`,
      async run(ctx) {
        const prompt = `a storm at sea [fault:${status}]`;
        await ctx.platform.imagine(ctx.channel, prompt);
        await expectImagineOutcome(ctx, prompt, 'failure');
      },
    },
    {
      name: `service ${status} on /imagine, first attempt only: the image, uploaded once`,
      async run(ctx) {
        const prompt = `a calm harbour [fault:${status}*1]`;
        await ctx.platform.imagine(ctx.channel, prompt);
        await expectImagineOutcome(ctx, prompt, 'images');
        expect(imageRequestCount(ctx)).toBe(2);
      },
    },
  ]);
  const outcomeRows = (
    [
      ['slow first byte', 'a slow sunrise [fault:slow=1500]', 'images'],
      ['safety block', 'something blocked [fault:safety]', 'failure'],
      ['no image in the answer', 'an empty frame [fault:no-image]', 'failure'],
      ['image only as a data URL', 'a red kite [fault:data-url]', 'images'],
      ['bad Base64 in the image', 'a broken mosaic [fault:bad-base64]', 'failure'],
    ] as const
  ).map(
    ([what, prompt, expected]): Row => ({
      name: `${what} on /imagine: ${expected === 'images' ? 'the image, uploaded once' : 'a short human line, no images'}`,
      async run(ctx) {
        await ctx.platform.imagine(ctx.channel, prompt);
        await expectImagineOutcome(ctx, prompt, expected);
      },
    }),
  );
  return [...statusRows, ...outcomeRows];
}

export const serviceFaultRows: Row[] = [...mentionRows(), ...imagineRows()];
