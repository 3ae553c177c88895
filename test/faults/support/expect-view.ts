import { eventually } from '@genbot/test-servers';
import { copy } from '@genbot/core/copy';
import type { MessagesRequest } from '@genbot/core/genai';
import sharp from 'sharp';
import { expect } from 'vitest';
import { generateContentRequests, messagesRequests } from './oracle.js';
import type { View } from './platform.js';
import type { RowContext } from './row.js';
import { settled } from './settle.js';

/** Waits for the bot's n-th (1-based) conversation request of the row. */
export async function nthMessagesRequest(ctx: RowContext, n = 1, timeoutMs = 15_000): Promise<MessagesRequest> {
  return eventually(() => messagesRequests(ctx.requests())[n - 1], {
    timeoutMs,
    what: `the bot's conversation request #${n}`,
  });
}

/** The text of the conversation's last user turn, as the model got it. */
export function lastUserText(request: MessagesRequest): string {
  const content = request.messages.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** Exactly these text messages and no uploads, once the channel is quiet. */
export async function expectTexts(ctx: RowContext, texts: readonly string[], timeoutMs?: number): Promise<View> {
  const view = await settled(
    ctx.platform,
    ctx.channel,
    (v) => v.uploads.length === 0 && sameTexts(v.texts, texts),
    timeoutMs,
  );
  expect(view).toEqual({ texts, uploads: [] });
  return view;
}

export function sameTexts(actual: readonly string[], expected: readonly string[]): boolean {
  return actual.length === expected.length && actual.every((text, index) => text === expected[index]);
}

/**
 * After a mention: the one reply the service's answer (or failure) should end
 * as, and nothing else. `complete`: the row expects the model's whole answer,
 * not a failure line.
 */
export async function expectOneReply(
  ctx: RowContext,
  outcome: 'complete' | 'failure',
  timeoutMs?: number,
): Promise<MessagesRequest> {
  const request = await nthMessagesRequest(ctx);
  const expected = await ctx.oracle.reply(request);
  expect(
    /⚠️|can't help|no answer/.test(expected) ? 'failure' : 'complete',
    `the service's own answer: ${expected}`,
  ).toBe(outcome);
  await expectTexts(ctx, [expected], timeoutMs);
  return request;
}

/**
 * After /imagine with `prompt`: the progress message ends as core says for
 * what the service does with it (`expected`: images, or a failure), with the
 * images uploaded exactly once.
 */
export async function expectImagineOutcome(
  ctx: RowContext,
  prompt: string,
  expected: 'images' | 'failure',
): Promise<View> {
  const outcome = await ctx.oracle.imagine(ctx.platform.imageModel, prompt);
  if ('failure' in outcome) {
    expect(expected, `the service itself fails for ${prompt}`).toBe('failure');
    return expectTexts(ctx, [outcome.failure]);
  }
  expect(expected, `the service itself answers ${prompt} with images`).toBe('images');
  return expectImages(ctx, prompt, outcome.images);
}

/** What a finished image job leaves as text beside its images: its done line, or nothing where the result stands alone. */
export function lastWords(ctx: RowContext, done: string, via: 'imagine' | 'mention'): string[] {
  return ctx.platform.resultStandsAlone[via] ? [] : [done];
}

/** The done line (where there is one), and one upload of `count` decodable images with the prompt as its comment. */
export async function expectImages(ctx: RowContext, prompt: string, count: number, timeoutMs?: number): Promise<View> {
  const done = lastWords(ctx, copy.imagineDone(prompt, { uploaded: count, tooLarge: 0 }), 'imagine');
  const comment = copy.imageComment(prompt);
  const view = await settled(
    ctx.platform,
    ctx.channel,
    (v) => sameTexts(v.texts, done) && v.uploads.length === 1 && v.uploads[0]?.files.length === count,
    timeoutMs,
  );
  expect(view.texts).toEqual(done);
  expect(view.uploads.map((upload) => [upload.comment, upload.files.length])).toEqual([[comment, count]]);
  for (const file of view.uploads[0]?.files ?? []) {
    const metadata = await sharp(file.bytes).metadata();
    expect(
      file.name.endsWith(`.${metadata.format === 'jpeg' ? 'jpg' : metadata.format}`),
      `${file.name} is ${metadata.format}`,
    ).toBe(true);
  }
  return view;
}

/** Nothing at all reached the service during the row. */
export function expectNothingSent(ctx: RowContext): void {
  expect(ctx.requests().map((request) => request.path)).toEqual([]);
}

export function imageRequestCount(ctx: RowContext): number {
  return generateContentRequests(ctx.requests()).length;
}
