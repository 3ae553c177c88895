import { eventually } from '@genbot/test-servers';
import { copy } from '@genbot/core/copy';
import type { MessageContentBlock, MessagesRequest, ToolResultBlockParam } from '@genbot/core/genai';
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

/** What a finished /imagine leaves as text beside its images: its done line, or nothing where the result stands alone. */
export function lastWords(ctx: RowContext, done: string): string[] {
  return ctx.platform.resultStandsAlone.imagine ? [] : [done];
}

/**
 * What the model said in each of the row's conversation requests, in order,
 * the rounds where it only called a tool left out: a reply's own words.
 */
export async function modelWords(ctx: RowContext): Promise<string[]> {
  const words = await Promise.all(messagesRequests(ctx.requests()).map((request) => ctx.oracle.words(request)));
  return words.filter((text) => text.trim() !== '');
}

/**
 * A reply's text with the blank lines between its parts counted once and
 * none at its ends: genbot's own lines about a tool call sit between the
 * model's paragraphs, and these rows check the parts and their order.
 */
export function paragraphs(text: string): string {
  return text.replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * After a mention whose model called tools: one reply, `reply` (its parts
 * joined by blank lines), and `uploads` results of one image each.
 */
export async function expectToolReply(
  ctx: RowContext,
  reply: string,
  uploads: number,
  timeoutMs = 30_000,
): Promise<View> {
  const view = await settled(
    ctx.platform,
    ctx.channel,
    (v) => v.uploads.length === uploads && v.texts.length === 1 && paragraphs(v.texts[0] ?? '') === reply,
    timeoutMs,
  );
  expect(view.texts.map(paragraphs)).toEqual([reply]);
  expect(view.uploads.map((upload) => upload.files.length)).toEqual(Array(uploads).fill(1));
  return view;
}

/** The done line (where there is one), and one upload of `count` decodable images with the prompt as its comment. */
export async function expectImages(ctx: RowContext, prompt: string, count: number, timeoutMs?: number): Promise<View> {
  const done = lastWords(ctx, copy.imagineDone(prompt, { uploaded: count, tooLarge: 0 }));
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

function blocksOf(request: MessagesRequest, turn: number): MessageContentBlock[] {
  const content = request.messages.at(turn)?.content;
  return typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? []);
}

/** The content blocks of the request's last user turn: its files, then its words, or its tool results. */
export function lastTurnBlocks(request: MessagesRequest): MessageContentBlock[] {
  return blocksOf(request, -1);
}

/** The image and document blocks anywhere in the request: the files that reached the model. */
export function sentFiles(request: MessagesRequest): MessageContentBlock[] {
  return request.messages.flatMap((_, turn) =>
    blocksOf(request, turn).filter((block) => block.type === 'image' || block.type === 'document'),
  );
}

/** The tool results the request sends back, from its last user turn. */
export function toolResults(request: MessagesRequest): ToolResultBlockParam[] {
  return lastTurnBlocks(request).filter((block): block is ToolResultBlockParam => block.type === 'tool_result');
}

export function resultText(result: ToolResultBlockParam | undefined): string {
  const content = result?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/**
 * A mention answered as a conversation that could not use its files: the
 * model's answer, then `notes`, from one request, nothing sent to
 * generate-content. Answers the request.
 */
export async function expectAnswerWithNotes(ctx: RowContext, notes: readonly string[]): Promise<MessagesRequest> {
  const request = await nthMessagesRequest(ctx, 1, 30_000);
  const answer = await ctx.oracle.reply(request);
  await expectTexts(ctx, [[answer, ...notes].join('\n\n')], 30_000);
  expect(messagesRequests(ctx.requests())).toHaveLength(1);
  expect(imageRequestCount(ctx)).toBe(0);
  return request;
}

/**
 * A mention's edit by the model's edit_image call: one result of one image
 * with the instruction as its comment, a reply of the model's words, and the
 * source sent to generate-content once.
 */
export async function expectEdited(ctx: RowContext, instruction: string): Promise<void> {
  await nthMessagesRequest(ctx, 2, 30_000);
  const view = await expectToolReply(ctx, (await modelWords(ctx)).join('\n\n'), 1);
  expect(view.uploads[0]?.comment).toBe(copy.editComment(instruction));
  expect(imageRequestCount(ctx)).toBe(1);
  expect(messagesRequests(ctx.requests())).toHaveLength(2);
}

/**
 * After a mention whose model made one tool call that must not run: an
 * error result in the second request, which is the last; nothing sent to
 * generate-content; a reply of the model's words, with `told` (what genbot
 * says itself about the call, if anything) after the first round's and the
 * `notes` at its end. Answers the error result's text.
 */
export async function expectToolRefused(
  ctx: RowContext,
  told: string | undefined,
  notes: readonly string[] = [],
): Promise<string> {
  const second = await nthMessagesRequest(ctx, 2, 30_000);
  const results = toolResults(second);
  expect(results.map((result) => result.is_error)).toEqual([true]);
  const [first = '', ...rest] = await Promise.all(
    messagesRequests(ctx.requests()).map((request) => ctx.oracle.words(request)),
  );
  const reply = [first, told ?? '', ...rest, ...notes].filter((part) => part.trim() !== '').join('\n\n');
  await expectToolReply(ctx, reply, 0);
  expect(messagesRequests(ctx.requests())).toHaveLength(2);
  expect(imageRequestCount(ctx)).toBe(0);
  return resultText(results[0]);
}
