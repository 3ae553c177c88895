import { describe, expect, it } from 'vitest';
import { BadResponseError, NoOutputError, SafetyStopError, ServiceFailedError } from './errors.js';
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
      toolUses: [],
      content: [{ type: 'text', text: 'Héllo world' }],
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

  describe('tool_use blocks', () => {
    const start = (index: number, block: object): string =>
      sse('content_block_start', { type: 'content_block_start', index, content_block: block });
    const json = (index: number, partial_json: string): string =>
      sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json },
      });
    const text = (index: number, value: string): string =>
      sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: value } });
    const stop = (index: number): string => sse('content_block_stop', { type: 'content_block_stop', index });
    const toolStop =
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use' },
        usage: { output_tokens: 30 },
      }) + sse('message_stop', { type: 'message_stop' });
    const tool = (id: string, name: string): object => ({ type: 'tool_use', id, name, input: {} });

    it('puts input_json_delta pieces together per block, split anywhere, and stops with tool_use', async () => {
      const input = JSON.stringify({ prompt: 'a lighthouse at dawn, “wide”', aspect_ratio: '16:9' });
      const pieces = [input.slice(0, 1), input.slice(1, 9), input.slice(9, 30), input.slice(30)];
      const stream = streamOf(
        sse('message_start', MESSAGE_START) +
          start(0, { type: 'text', text: '' }) +
          text(0, 'Drawing it.') +
          stop(0) +
          start(1, tool('toolu_1', 'generate_image')) +
          json(1, '') +
          pieces.map((piece) => json(1, piece)).join('') +
          stop(1) +
          toolStop,
      );
      const deltas: string[] = [];
      for await (const delta of stream.textDeltas()) deltas.push(delta);
      expect(deltas).toEqual(['Drawing it.']);
      const final = await stream.finalMessage();
      expect(final.stopReason).toBe('tool_use');
      expect(final.text).toBe('Drawing it.');
      expect(final.toolUses).toEqual([
        {
          kind: 'call',
          id: 'toolu_1',
          name: 'generate_image',
          input: { prompt: 'a lighthouse at dawn, “wide”', aspect_ratio: '16:9' },
        },
      ]);
      expect(final.content).toEqual([
        { type: 'text', text: 'Drawing it.' },
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'generate_image',
          input: { prompt: 'a lighthouse at dawn, “wide”', aspect_ratio: '16:9' },
        },
      ]);
    });

    it('keeps two tool calls in one answer apart, even with their deltas interleaved, in block order', async () => {
      const stream = streamOf(
        sse('message_start', MESSAGE_START) +
          start(0, tool('toolu_a', 'generate_image')) +
          start(1, tool('toolu_b', 'edit_image')) +
          json(1, '{"instruction":') +
          json(0, '{"prompt":"a cat"') +
          json(1, '"make it blue"}') +
          json(0, '}') +
          stop(1) +
          stop(0) +
          toolStop,
      );
      const final = await stream.finalMessage();
      expect(final.toolUses).toEqual([
        { kind: 'call', id: 'toolu_a', name: 'generate_image', input: { prompt: 'a cat' } },
        { kind: 'call', id: 'toolu_b', name: 'edit_image', input: { instruction: 'make it blue' } },
      ]);
      expect(final.text).toBe('');
    });

    it('turns input that is not a JSON object into an invalid tool use, not a failure', async () => {
      const stream = streamOf(
        sse('message_start', MESSAGE_START) +
          start(0, tool('toolu_bad', 'generate_image')) +
          json(0, '{"prompt": "a cat"') +
          stop(0) +
          start(1, tool('toolu_list', 'generate_image')) +
          json(1, '["a cat"]') +
          stop(1) +
          start(2, tool('toolu_none', 'edit_image')) +
          stop(2) +
          toolStop,
      );
      const final = await stream.finalMessage();
      expect(final.toolUses).toMatchObject([
        { kind: 'invalid', id: 'toolu_bad', name: 'generate_image', rawInput: '{"prompt": "a cat"' },
        { kind: 'invalid', id: 'toolu_list', rawInput: '["a cat"]', problem: 'the input is not a JSON object' },
        // No JSON at all is a call without arguments.
        { kind: 'call', id: 'toolu_none', name: 'edit_image', input: {} },
      ]);
      expect(final.toolUses[0]).toHaveProperty('problem', expect.stringContaining('not valid JSON'));
      // The assistant turn still carries every call, so each can be answered with a tool_result.
      expect(final.content.map((block) => (block.type === 'tool_use' ? block.input : block))).toEqual([{}, {}, {}]);
    });

    it('reads tool calls with fields and blocks it does not know, and skips unknown deltas', async () => {
      const stream = streamOf(
        sse('message_start', MESSAGE_START) +
          start(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }) +
          json(0, '{"query":"x"}') +
          stop(0) +
          start(1, { ...tool('toolu_1', 'generate_image'), caller: { type: 'direct' }, cache_control: null }) +
          sse('content_block_delta', {
            type: 'content_block_delta',
            index: 1,
            delta: { type: 'citations_delta', citation: {} },
          }) +
          json(1, '{"prompt":"a fox","count":2,"style":{"new":true}}') +
          stop(1) +
          toolStop,
      );
      const final = await stream.finalMessage();
      expect(final.toolUses).toEqual([
        {
          kind: 'call',
          id: 'toolu_1',
          name: 'generate_image',
          input: { prompt: 'a fox', count: 2, style: { new: true } },
        },
      ]);
    });

    it('places events that leave out their index in the block opened last, after a thinking block', async () => {
      const bare = (event: string, data: object): string => sse(event, { type: event, ...data });
      const stream = streamOf(
        sse('message_start', MESSAGE_START) +
          bare('content_block_start', { content_block: { type: 'thinking', thinking: '' } }) +
          bare('content_block_stop', {}) +
          bare('content_block_start', { content_block: tool('toolu_1', 'generate_image') }) +
          bare('content_block_delta', { delta: { type: 'input_json_delta', partial_json: '{"prompt":' } }) +
          bare('content_block_delta', { delta: { type: 'input_json_delta', partial_json: '"a cat"}' } }) +
          bare('content_block_stop', {}) +
          toolStop,
      );
      expect((await stream.finalMessage()).toolUses).toEqual([
        { kind: 'call', id: 'toolu_1', name: 'generate_image', input: { prompt: 'a cat' } },
      ]);
    });

    it('fails a tool_use block without its id as an event it cannot read', async () => {
      const stream = streamOf(
        sse('message_start', MESSAGE_START) +
          start(0, { type: 'tool_use', name: 'generate_image', input: {} }) +
          toolStop,
      );
      await expect(stream.finalMessage()).rejects.toBeInstanceOf(BadResponseError);
    });
  });
});
