import { describe, expect, it } from 'vitest';
import { NoOutputError, SafetyStopError, ServiceFailedError } from './errors.js';
import { AccumulatingMessageStream } from './message-stream.js';
import { parseMessageEvents } from './sse.js';
import { bytesInPieces, FULL_STREAM, MESSAGE_START, sse } from '../../testing/fixtures.js';

const scrub = (text: string): string => text;

function streamOf(text: string): AccumulatingMessageStream {
  return new AccumulatingMessageStream(parseMessageEvents(bytesInPieces(text, 11), { scrub }));
}

describe('AccumulatingMessageStream', () => {
  it('textDeltas yields reply text only, then finalMessage adds it all up', async () => {
    const stream = streamOf(FULL_STREAM);
    const deltas: string[] = [];
    for await (const text of stream.textDeltas()) deltas.push(text);
    expect(deltas).toEqual(['Héllo', ' world']);
    expect(await stream.finalMessage()).toEqual({
      id: 'msg_1',
      model: 'claude-x',
      text: 'Héllo world',
      stopReason: 'end_turn',
      usage: { input_tokens: 12, output_tokens: 7 },
    });
  });

  it('finalMessage consumes what is left after a partial read', async () => {
    const stream = streamOf(FULL_STREAM);
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.type).toBe('message_start');
    expect((await stream.finalMessage()).text).toBe('Héllo world');
  });

  it('finalMessage rejects with the stream error, even after the error was seen', async () => {
    const stream = streamOf(
      sse('message_start', MESSAGE_START) +
        sse('error', { type: 'error', error: { type: 'api_error', message: 'boom' } }),
    );
    await expect(async () => {
      for await (const text of stream.textDeltas()) void text;
    }).rejects.toMatchObject({ type: 'api_error' });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(ServiceFailedError);
  });

  it('keeps counts sent earlier when later ones come as null, and takes usage sent only at the end', async () => {
    const ending = (usage: object): string =>
      sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage }) +
      sse('message_stop', { type: 'message_stop' });
    const nulls = streamOf(
      sse('message_start', MESSAGE_START) +
        ending({ input_tokens: null, output_tokens: 6, cache_read_input_tokens: null }),
    );
    expect((await nulls.finalMessage()).usage).toEqual({ input_tokens: 12, output_tokens: 6 });
    const { usage: _usage, ...bare } = MESSAGE_START.message;
    const late = streamOf(
      sse('message_start', { type: 'message_start', message: bare }) + ending({ input_tokens: 9, output_tokens: 4 }),
    );
    expect((await late.finalMessage()).usage).toEqual({ input_tokens: 9, output_tokens: 4 });
  });

  it('fails a refusal: SafetyStopError with the text before it, NoOutputError without any', async () => {
    const refusal = (text: string): string =>
      sse('message_start', MESSAGE_START) +
      (text === ''
        ? ''
        : sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })) +
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'refusal', stop_details: { type: 'refusal', explanation: 'Policy.' } },
        usage: { output_tokens: 3 },
      }) +
      sse('message_stop', { type: 'message_stop' });
    const partial = streamOf(refusal('Here is how'));
    const deltas: string[] = [];
    const stopped = await (async () => {
      for await (const text of partial.textDeltas()) deltas.push(text);
    })().catch((e: unknown) => e);
    expect(deltas).toEqual(['Here is how']);
    expect(stopped).toBeInstanceOf(SafetyStopError);
    expect(stopped).toMatchObject({ text: 'Here is how', reason: 'refusal', explanation: 'Policy.' });
    await expect(partial.finalMessage()).rejects.toBe(stopped);

    const refused = await streamOf(refusal(''))
      .finalMessage()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NoOutputError);
    expect(refused).toMatchObject({ wanted: 'text', stopReason: 'refusal', safetyBlocked: true });
    expect((refused as Error).message).toContain('Policy.');
  });
});
