import { eventually } from '@genbot/test-servers';
import { copy } from '@genbot/core/copy';
import { ServiceTimeoutError } from '@genbot/core/errors';
import { describeError } from '@genbot/core/genai';
import { expect } from 'vitest';
import { expectImagineOutcome, expectOneReply } from '../support/expect-view.js';
import { generateContentRequests, messagesRequests } from '../support/oracle.js';
import type { Row, RowContext } from '../support/row.js';
import { settled } from '../support/settle.js';
import { SERVICE_LIMITS } from '../support/service-limits.js';

const MiB = 1024 * 1024;

/** Every attempt of the row got its error page, and none read more than its start (a 200 MiB page each). */
async function expectOnlyStartsRead(ctx: RowContext, attempts: number): Promise<void> {
  // An answer's size is known once its connection closes, which may come just after the reply.
  await eventually(() => ctx.requests().every((request) => request.responseBytes !== undefined), {
    timeoutMs: 10_000,
    what: 'the size of every answer',
  });
  const sent = ctx.requests().map((request) => request.responseBytes ?? Number.POSITIVE_INFINITY);
  expect(sent).toHaveLength(attempts);
  expect(Math.max(...sent)).toBeLessThan(16 * MiB);
}

/**
 * A service (or a proxy before it) gone wrong: answers without end, without
 * content, or far too large. Each ends as a short human line, within bounds.
 */
export const hostileServiceRows: Row[] = [
  {
    name: 'a stream line that never ends, on a mention: the text so far and a short human line',
    async run(ctx) {
      await ctx.platform.mention(ctx.channel, 'go on forever [fault:endless-line]');
      await expectOneReply(ctx, 'failure');
      expect(messagesRequests(ctx.requests())).toHaveLength(1);
    },
  },
  {
    name: 'a stream of nothing but pings, on a mention: a short human line once it is idle',
    async run(ctx) {
      await ctx.platform.mention(ctx.channel, 'are you there? [fault:only-pings] [delay:50]');
      await expectOneReply(ctx, 'failure');
    },
  },
  {
    name: 'a stream that keeps going past its deadline, on a mention: the text so far and a short human line',
    async run(ctx) {
      // 40 deltas 400 ms apart: content all along, so only the stream's total deadline ends it.
      await ctx.platform.mention(ctx.channel, 'tell me everything [len:4000] [delay:400]');
      const timedOut = describeError(new ServiceTimeoutError('deadline', { operation: 'messages' }));
      const line = `\n\n${copy.replyFailed(timedOut, true)}`;
      const view = await settled(
        ctx.platform,
        ctx.channel,
        (v) => v.texts.some((text) => text.endsWith(line)),
        SERVICE_LIMITS.streamTimeoutMs + 20_000,
      );
      expect(view.uploads).toEqual([]);
      expect(view.texts.at(-1)?.endsWith(line)).toBe(true);
      expect(view.texts.join('').length).toBeGreaterThan(line.length + 100);
      expect(messagesRequests(ctx.requests())).toHaveLength(1);
    },
  },
  {
    name: 'a 200 MiB error page on every attempt of a mention: a short human line, each page read only so far',
    async run(ctx) {
      await ctx.platform.mention(ctx.channel, 'hello [fault:huge-error]');
      await expectOneReply(ctx, 'failure');
      await expectOnlyStartsRead(ctx, 4);
    },
  },
  {
    name: 'a 200 MiB error page on every attempt of /imagine: a short human line, each page read only so far',
    async run(ctx) {
      const prompt = 'a lighthouse [fault:huge-error]';
      await ctx.platform.imagine(ctx.channel, prompt);
      await expectImagineOutcome(ctx, prompt, 'failure');
      await expectOnlyStartsRead(ctx, 4);
    },
  },
  {
    name: 'an image answer over the size cap on /imagine: a short human line, no images',
    async run(ctx) {
      const prompt = 'a huge mural [mb:5]';
      await ctx.platform.imagine(ctx.channel, prompt);
      await expectImagineOutcome(ctx, prompt, 'failure');
      expect(generateContentRequests(ctx.requests())).toHaveLength(1);
    },
  },
  {
    name: 'an image answer that never ends on /imagine: a short human line, no images',
    async run(ctx) {
      const prompt = 'an endless scroll [fault:endless-line]';
      await ctx.platform.imagine(ctx.channel, prompt);
      await expectImagineOutcome(ctx, prompt, 'failure');
      expect(generateContentRequests(ctx.requests())).toHaveLength(1);
    },
  },
];
