import { describe, expect, it } from 'vitest';
import {
  BadResponseError,
  ResponseTooLargeError,
  ServiceOverloadedError,
  ServiceRejectedError,
  StreamCutError,
} from './errors.js';
import { parseMessageEvents } from './sse.js';
import { bytesInPieces, FULL_STREAM, MESSAGE_START, sse } from '../../testing/fixtures.js';
import type { MessageStreamEvent } from './types.js';

const scrub = (text: string): string => text;

async function collect(source: AsyncIterable<MessageStreamEvent>): Promise<MessageStreamEvent[]> {
  const events: MessageStreamEvent[] = [];
  for await (const event of source) events.push(event);
  return events;
}

describe('parseMessageEvents', () => {
  it('yields every event kind, typed, whatever the chunking', async () => {
    for (const size of [1, 7, 64, 100_000]) {
      const events = await collect(parseMessageEvents(bytesInPieces(FULL_STREAM, size), { scrub }));
      expect(events.map((e) => e.type)).toEqual([
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'ping',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      const text = events.flatMap((e) =>
        e.type === 'content_block_delta' && e.delta.type === 'text_delta' && 'text' in e.delta ? [e.delta.text] : [],
      );
      expect(text.join('')).toBe('Héllo world');
    }
  });

  it('keeps unknown fields and skips unknown event kinds', async () => {
    const stream =
      sse('message_start', { ...MESSAGE_START, extra: 1 }) +
      sse('brand_new', { type: 'brand_new' }) +
      sse('message_stop', { type: 'message_stop' });
    const skipped: string[] = [];
    const events = await collect(
      parseMessageEvents(bytesInPieces(stream, 5), { scrub, onUnknownEvent: (t) => skipped.push(t) }),
    );
    expect(events.map((e) => e.type)).toEqual(['message_start', 'message_stop']);
    expect((events[0] as unknown as { extra: number }).extra).toBe(1);
    expect(skipped).toEqual(['brand_new']);
  });

  it('throws an error event as a typed service error', async () => {
    const stream =
      sse('message_start', MESSAGE_START) +
      sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const events: string[] = [];
    const error = await (async () => {
      for await (const event of parseMessageEvents(bytesInPieces(stream, 9), { scrub })) events.push(event.type);
    })().catch((e: unknown) => e);
    expect(events).toEqual(['message_start']);
    expect(error).toBeInstanceOf(ServiceOverloadedError);
    expect(error).toMatchObject({ type: 'overloaded_error', retryable: true, status: undefined });
    expect((error as Error).message).toContain('Overloaded');
  });

  it('marks a request-side stream error as not retryable', async () => {
    const stream = sse('error', { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } });
    const error = await collect(parseMessageEvents(bytesInPieces(stream, 4), { scrub })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceRejectedError);
    expect(error).toMatchObject({ type: 'invalid_request_error', retryable: false });
  });

  it('calls a stream that ends before message_stop cut', async () => {
    const stream = FULL_STREAM.slice(0, FULL_STREAM.indexOf('event: message_delta'));
    await expect(collect(parseMessageEvents(bytesInPieces(stream, 13), { scrub }))).rejects.toBeInstanceOf(
      StreamCutError,
    );
    const midEvent = FULL_STREAM.slice(0, FULL_STREAM.indexOf('"message_delta"') + 5);
    await expect(collect(parseMessageEvents(bytesInPieces(midEvent, 13), { scrub }))).rejects.toBeInstanceOf(
      StreamCutError,
    );
  });

  it('takes a last event that lacks its closing blank line, or even its line end', async () => {
    for (const ending of ['\n', '']) {
      const stream = `${FULL_STREAM.trimEnd()}${ending}`;
      const events = await collect(parseMessageEvents(bytesInPieces(stream, 11), { scrub }));
      expect(events.at(-1)?.type).toBe('message_stop');
    }
  });

  it('reads what it does not need leniently: null or missing usage, odd indexes, padded data', async () => {
    const { usage: _usage, ...bareMessage } = MESSAGE_START.message;
    const stream =
      sse('message_start', { type: 'message_start', message: bareMessage }) +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":"zero","delta":{"type":"text_delta","text":"hi"}}      \n\n' +
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_details: null },
        usage: { input_tokens: null, output_tokens: 3, cache_read_input_tokens: null },
      }) +
      sse('message_stop', { type: 'message_stop' });
    const events = await collect(parseMessageEvents(bytesInPieces(stream, 7), { scrub }));
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_delta',
      'message_delta',
      'message_stop',
    ]);
  });

  it('ends a stream whose line or event grows past the cap', async () => {
    const endless = `${sse('message_start', MESSAGE_START)}data: {"type":"content_block_delta","delta":{"text":"${'x'.repeat(5_000)}`;
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of parseMessageEvents(bytesInPieces(endless, 512), { scrub, maxEventChars: 2_000 })) {
        seen.push(event.type);
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['message_start']);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const manyLines = `event: content_block_delta\n${'data: {}\n'.repeat(1_000)}\n`;
    await expect(
      collect(parseMessageEvents(bytesInPieces(manyLines, 64), { scrub, maxEventChars: 2_000 })),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('refuses event data that does not fit what it needs', async () => {
    const bad = sse('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 5 },
    });
    await expect(collect(parseMessageEvents(bytesInPieces(bad, 100), { scrub }))).rejects.toBeInstanceOf(
      BadResponseError,
    );
    const missingText = sse('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta' },
    });
    await expect(collect(parseMessageEvents(bytesInPieces(missingText, 100), { scrub }))).rejects.toBeInstanceOf(
      BadResponseError,
    );
    await expect(
      collect(parseMessageEvents(bytesInPieces('data: {nope\n\ndata: {}\n\n', 100), { scrub })),
    ).rejects.toBeInstanceOf(BadResponseError);
  });
});
