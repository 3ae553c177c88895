import { describe, expect, it } from 'vitest';
import { AccumulatingMessageStream } from './message-stream.js';
import { parseMessageEvents } from './sse.js';
import { bytesInPieces, FULL_STREAM, MESSAGE_START, sse } from './test-fixtures.js';

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
    const stream = streamOf(sse('message_start', MESSAGE_START) + sse('error', { type: 'error', error: { type: 'api_error', message: 'boom' } }));
    await expect(async () => {
      for await (const text of stream.textDeltas()) void text;
    }).rejects.toMatchObject({ errorType: 'api_error' });
    await expect(stream.finalMessage()).rejects.toMatchObject({ errorType: 'api_error' });
  });
});
