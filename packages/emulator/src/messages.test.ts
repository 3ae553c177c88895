import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';
import type { Emulator } from './server.js';
import { parseSse, postJson, readUntilCut } from './http-test-client.js';
import type { SseFrame } from './http-test-client.js';

const KEY = 'anthropic-test-key';
const HEADERS = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };

interface Message {
  id: string;
  type: string;
  role: string;
  model: string;
  content: { type: string; text: string }[];
  stop_reason: string;
  usage: { input_tokens: number; output_tokens: number };
}
interface AnthropicErrorBody {
  type: string;
  error: { type: string; message: string };
  request_id: string;
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: KEY, streamDelayMs: 1 });
});
afterAll(() => emulator.close());

function request(prompt: string, extra: object = {}) {
  return { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: prompt }], ...extra };
}

function send(body: unknown, headers: Record<string, string> = HEADERS): Promise<Response> {
  return postJson(`${emulator.url}/v1/messages`, body, headers);
}

async function message(response: Response): Promise<Message> {
  expect(response.status).toBe(200);
  expect(response.headers.get('request-id')).toMatch(/^req_/);
  return (await response.json()) as Message;
}

async function failure(response: Response, status: number, type: string): Promise<string> {
  expect(response.status).toBe(status);
  const requestId = response.headers.get('request-id');
  expect(requestId).toMatch(/^req_/);
  const body = (await response.json()) as AnthropicErrorBody;
  expect(body).toMatchObject({ type: 'error', error: { type }, request_id: requestId });
  return body.error.message;
}

async function frames(response: Response): Promise<SseFrame[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return parseSse(await response.text());
}

interface Delta {
  index: number;
  delta: { type: string; text?: string };
}

function textDeltas(events: SseFrame[]): SseFrame[] {
  return events.filter(
    (frame) => frame.event === 'content_block_delta' && (frame.data as Delta).delta.type === 'text_delta',
  );
}

function deltaText(events: SseFrame[]): string {
  return textDeltas(events)
    .map((frame) => (frame.data as Delta).delta.text)
    .join('');
}

/** The event kinds of the text block: from its start to its stop. */
function textBlockKinds(events: SseFrame[]): string[] {
  const start = events.findIndex(
    (frame) =>
      frame.event === 'content_block_start' &&
      (frame.data as { content_block: { type: string } }).content_block.type === 'text',
  );
  const stop = events.findIndex((frame, at) => at > start && frame.event === 'content_block_stop');
  return events.slice(start, stop + 1).map((frame) => frame.event);
}

describe('messages wire rules', () => {
  it('refuses a missing, wrong-style or wrong key with 401 authentication_error', async () => {
    await failure(await send(request('hi'), { 'anthropic-version': '2023-06-01' }), 401, 'authentication_error');
    await failure(
      await send(request('hi'), { 'anthropic-version': '2023-06-01', authorization: `Bearer ${KEY}` }),
      401,
      'authentication_error',
    );
    await failure(
      await send(request('hi'), { 'anthropic-version': '2023-06-01', 'x-goog-api-key': KEY }),
      401,
      'authentication_error',
    );
    await failure(await send(request('hi'), { ...HEADERS, 'x-api-key': 'wrong' }), 401, 'authentication_error');
  });

  it('requires anthropic-version 2023-06-01', async () => {
    await failure(await send(request('hi'), { 'x-api-key': KEY }), 400, 'invalid_request_error');
    await failure(
      await send(request('hi'), { 'x-api-key': KEY, 'anthropic-version': '2024-01-01' }),
      400,
      'invalid_request_error',
    );
  });

  it.each([
    ['bad JSON', '{"model":'],
    ['no max_tokens', { model: 'claude-x', messages: [{ role: 'user', content: 'hi' }] }],
    ['no model', { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }],
    ['no messages', { model: 'claude-x', max_tokens: 10, messages: [] }],
    ['a bad role', { model: 'claude-x', max_tokens: 10, messages: [{ role: 'system', content: 'hi' }] }],
    ['bad content', { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 42 }] }],
  ])('refuses %s with 400 invalid_request_error', async (_, body) => {
    await failure(await send(body), 400, 'invalid_request_error');
  });

  it('answers 404 not_found_error for an unknown model', async () => {
    expect(await failure(await send(request('hi', { model: 'claude-not-found' })), 404, 'not_found_error')).toContain(
      'claude-not-found',
    );
  });
});

describe('messages replies', () => {
  it('answers the last user message with a message JSON, deterministically', async () => {
    const conversation = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'be brief',
      messages: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: [{ type: 'text', text: 'second question' }] },
      ],
    };
    const reply = await message(await send(conversation));
    expect(reply).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      stop_reason: 'end_turn',
    });
    expect(reply.id).toMatch(/^msg_/);
    expect(reply.content).toHaveLength(1);
    expect(reply.content[0]?.text).toContain('"second question"');
    expect(reply.content[0]?.text).not.toContain('first question');
    // The turns before the question are counted, so that a person sees the context reach the model.
    expect(reply.content[0]?.text).toMatch(
      /^You said: "second question"\. \(2 earlier messages in this conversation\) /,
    );
    expect(reply.usage.input_tokens).toBeGreaterThan(0);
    expect(reply.usage.output_tokens).toBeGreaterThan(0);
    const again = await message(await send(conversation));
    expect(again.content).toEqual(reply.content);
  });

  it('cuts the reply at max_tokens * 4 characters with stop_reason max_tokens', async () => {
    const reply = await message(await send(request('a long story [len:600]', { max_tokens: 10 })));
    expect(reply.stop_reason).toBe('max_tokens');
    expect(reply.content[0]?.text).toHaveLength(40);
  });

  it('runs past max_tokens with [fault:ignore-max-tokens], as a service gone wrong would', async () => {
    const reply = await message(
      await send(request('a long story [len:600] [fault:ignore-max-tokens]', { max_tokens: 10 })),
    );
    expect(reply.stop_reason).toBe('end_turn');
    expect(reply.content[0]?.text.length).toBeGreaterThanOrEqual(600);
  });

  it('makes [len:N] replies about N characters in paragraphs, with a code fence from 1500', async () => {
    const short = (await message(await send(request('essay [len:900]')))).content[0]?.text ?? '';
    expect(short.length).toBeGreaterThanOrEqual(900);
    expect(short.length).toBeLessThan(1100);
    expect(short).not.toContain('```');
    const long = (await message(await send(request('essay [len:2000]')))).content[0]?.text ?? '';
    expect(long.length).toBeGreaterThanOrEqual(2000);
    expect(long.length).toBeLessThan(2200);
    expect(long.split('\n\n').length).toBeGreaterThan(3);
    expect(long.match(/```/g)).toHaveLength(2);
  });
});

describe('messages streaming', () => {
  it('sends every event kind in order, with pings between at least three deltas', async () => {
    const response = await send(request('stream this please', { stream: true }));
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const events = await frames(response);
    const kinds = events.map((frame) => frame.event);
    // A thinking block first, as thinking models send it: never part of the reply.
    expect(kinds.slice(0, 6)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
    ]);
    expect(events.slice(2, 5).map((frame) => (frame.data as Delta).delta.type)).toEqual([
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
    ]);
    expect(kinds.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const block = textBlockKinds(events);
    expect(block.join(',')).toMatch(
      /^content_block_start,content_block_delta(,ping,content_block_delta)+,content_block_stop$/,
    );
    expect(textDeltas(events).length).toBeGreaterThanOrEqual(3);
    for (const frame of events) expect((frame.data as { type: string }).type).toBe(frame.event);

    const start = events[0]?.data as { message: { id: string; usage: { input_tokens: number } } };
    expect(start.message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
    });
    expect(start.message.id).toMatch(/^msg_/);
    expect(start.message.usage.input_tokens).toBeGreaterThan(0);
    expect(events[6]?.data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'text', text: '' },
    });
    const delta = events.find((frame) => frame.event === 'message_delta')?.data as {
      delta: { stop_reason: string };
      usage: { input_tokens: null; output_tokens: number };
    };
    expect(delta.delta.stop_reason).toBe('end_turn');
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
    // Counts the service does not repeat come as null, as the real one sends them.
    expect(delta.usage.input_tokens).toBeNull();

    const plain = await message(await send(request('stream this please')));
    expect(deltaText(events)).toBe(plain.content[0]?.text);
  });

  it('writes as the real service does: padded data lines, no blank line after the last event', async () => {
    const body = await (await send(request('shapes please', { stream: true }))).text();
    expect(body).toMatch(/^data: \{.*\S {2,}\}$/m);
    expect(body).toMatch(/data: \{"type":"message_stop" *\}\n$/);
    expect(body.endsWith('\n\n')).toBe(false);
  });

  it('sends usage only at the end for [usage:late], as some gateways do', async () => {
    const events = await frames(await send(request('late usage [usage:late]', { stream: true })));
    const start = events[0]?.data as { message: Record<string, unknown> };
    expect(start.message).not.toHaveProperty('usage');
    const delta = events.find((frame) => frame.event === 'message_delta')?.data as {
      usage: { input_tokens: number; output_tokens: number };
    };
    expect(delta.usage.input_tokens).toBeGreaterThan(0);
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
  });

  it('ends with stop_reason max_tokens when the text is cut, and honours [delay:MS]', async () => {
    const events = await frames(await send(request('cut me [delay:0] [len:500]', { stream: true, max_tokens: 20 })));
    expect(deltaText(events)).toHaveLength(80);
    const delta = events.find((frame) => frame.event === 'message_delta')?.data as { delta: { stop_reason: string } };
    expect(delta.delta.stop_reason).toBe('max_tokens');
  });
});

describe('messages faults', () => {
  it('answers 429 rate_limit_error with retry-after, 500/503 api_error and 529 overloaded_error', async () => {
    const limited = await send(request('x [fault:429]'));
    expect(limited.headers.get('retry-after')).toBe('1');
    await failure(limited, 429, 'rate_limit_error');
    const now = await send(request('x'), { ...HEADERS, 'x-emulator-fault': '429=0' });
    expect(now.headers.get('retry-after')).toBe('0');
    await failure(now, 429, 'rate_limit_error');
    await failure(await send(request('x [fault:500]', { stream: true })), 500, 'api_error');
    await failure(await send(request('x [fault:503]')), 503, 'api_error');
    await failure(await send(request('x [fault:529]', { stream: true })), 529, 'overloaded_error');
  });

  it('fails the first N identical requests with KIND*N', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(request('retry [fault:529*3]'))).status);
    expect(statuses).toEqual([529, 529, 529, 200]);
    const streamed = [];
    for (let i = 0; i < 2; i++) {
      const response = await send(request('retry stream [fault:stream-error*1]', { stream: true }));
      streamed.push((await frames(response)).at(-1)?.event);
    }
    expect(streamed).toEqual(['error', 'message_stop']);
  });

  it('sends an error event after two deltas for stream-error, then ends', async () => {
    const events = await frames(await send(request('x [fault:stream-error]', { stream: true })));
    expect(textDeltas(events)).toHaveLength(2);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    await failure(await send(request('x [fault:stream-error]')), 500, 'api_error');
  });

  it('cuts the connection after two deltas for stream-cut', async () => {
    const response = await send(request('x [fault:stream-cut]', { stream: true }));
    expect(response.status).toBe(200);
    const { text, failed } = await readUntilCut(response);
    expect(failed).toBe(true);
    const events = parseSse(text);
    expect(textDeltas(events)).toHaveLength(2);
    expect(events.some((frame) => frame.event === 'message_stop')).toBe(false);
  });

  it('resets the connection, and answers normally after a slow start', async () => {
    await expect(send(request('x [fault:reset]'))).rejects.toThrow();
    const events = await frames(await send(request('x [fault:slow=30]', { stream: true })));
    expect(events.at(-1)?.event).toBe('message_stop');
  });

  it('refuses with stop_reason refusal and no text for safety', async () => {
    const reply = await message(await send(request('x [fault:safety]')));
    expect(reply.stop_reason).toBe('refusal');
    expect(reply.content).toEqual([]);
    const events = await frames(await send(request('x [fault:safety]', { stream: true })));
    expect(deltaText(events)).toBe('');
    expect(textBlockKinds(events)).toEqual(['content_block_start', 'content_block_stop']);
    const delta = events.find((frame) => frame.event === 'message_delta')?.data as {
      delta: { stop_reason: string; stop_details: { explanation: string } };
    };
    expect(delta.delta.stop_reason).toBe('refusal');
    expect(delta.delta.stop_details.explanation).toMatch(/refused/);
  });

  it('stops for safety after two deltas of text for safety-stop', async () => {
    const events = await frames(await send(request('x [fault:safety-stop] [len:400]', { stream: true })));
    expect(textDeltas(events)).toHaveLength(2);
    const delta = events.find((frame) => frame.event === 'message_delta')?.data as { delta: { stop_reason: string } };
    expect(delta.delta.stop_reason).toBe('refusal');
    expect(events.at(-1)?.event).toBe('message_stop');
  });

  it('never ends a line after two deltas for endless-line, writing only as fast as the client reads', async () => {
    const response = await send(request('x [fault:endless-line]', { stream: true }));
    const reader = response.body?.getReader();
    let text = '';
    const decoder = new TextDecoder();
    while (text.length < 2 * 1024 * 1024) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) throw new Error('the endless line ended');
      text += decoder.decode(chunk.value, { stream: true });
    }
    await reader?.cancel();
    const lines = text.split('\n');
    expect(lines.at(-1)?.length).toBeGreaterThan(2 * 1024 * 1024 - 10_000);
    expect(textDeltas(parseSse(lines.slice(0, -2).join('\n')))).toHaveLength(2);
  });

  it('sends nothing but pings after the start for only-pings, until the client goes away', async () => {
    const response = await send(request('x [fault:only-pings] [delay:10]', { stream: true }));
    const reader = response.body?.getReader();
    let text = '';
    const decoder = new TextDecoder();
    while ((text.match(/event: ping/g) ?? []).length < 5) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) throw new Error('the stream ended');
      text += decoder.decode(chunk.value, { stream: true });
    }
    await reader?.cancel();
    const kinds = parseSse(text.slice(0, text.lastIndexOf('\n\n'))).map((frame) => frame.event);
    expect(kinds).not.toContain('message_stop');
    expect(textDeltas(parseSse(text.slice(0, text.lastIndexOf('\n\n'))))).toHaveLength(0);
    expect(kinds.filter((kind) => kind === 'ping').length).toBeGreaterThanOrEqual(5);
  });

  it('answers huge-error=MB with a 500 page that long, sent only as fast as it is read', async () => {
    const response = await send(request('x [fault:huge-error=300]'));
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(Number(response.headers.get('content-length'))).toBe(300 * 1024 * 1024);
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    await expect
      .poll(() => emulator.requests.findLast((r) => JSON.stringify(r.body).includes('huge-error'))?.responseBytes)
      .toBeLessThan(32 * 1024 * 1024);
  });

  it('only looks for a fault in the last user message', async () => {
    const body = {
      model: 'claude-x',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'earlier [fault:500]' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'now' },
      ],
    };
    await message(await send(body));
  });
});
