import { startEmulator, type Emulator } from '@genbot/emulator';
import { fileTypeFromBuffer } from 'file-type';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenAiClient } from './client.js';
import { readInputImage } from './images.js';
import { tinyPng } from '../../testing/fixtures.js';
import type { GenerateContentRequest, MessageStreamEvent } from './types.js';

const KEY = 'sk-wire-test-key';

describe('the wire, as the emulator sees it', () => {
  let emulator: Emulator;
  let client: GenAiClient;

  beforeAll(async () => {
    emulator = await startEmulator({ pathPrefix: '/proxy', apiKey: KEY, streamDelayMs: 1 });
    client = new GenAiClient({ baseUrl: emulator.url, apiKey: KEY, retryBaseDelayMs: 5 });
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  function lastRequest(): Emulator['requests'][number] {
    const request = emulator.requests.at(-1);
    if (request === undefined) throw new Error('no request recorded');
    return request;
  }

  it('text reply: x-goog-api-key, prefixed path, camelCase body', async () => {
    const text = await client.generateText('gemini-text', 'hello there');
    expect(text).toContain('hello there');
    const request = lastRequest();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/proxy/v1beta/models/gemini-text:generateContent');
    expect(request.headers['x-goog-api-key']).toBe(KEY);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['x-api-key']).toBeUndefined();
    expect(request.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hello there' }] }] });
  });

  it('passes every generate-content request field through unchanged', async () => {
    const request: GenerateContentRequest = {
      contents: [{ role: 'user', parts: [{ text: 'be brief' }] }],
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      generationConfig: {
        temperature: 0.2,
        topP: 0.9,
        topK: 20,
        candidateCount: 1,
        maxOutputTokens: 64,
        stopSequences: ['END'],
        responseMimeType: 'text/plain',
      },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
    };
    await client.generateText('gemini-text', request);
    expect(lastRequest().body).toEqual(request);
  });

  it('image generation: Bearer credentials, IMAGE modality and aspect ratio', async () => {
    const images = await client.generateImages('gemini-flash-image', { prompt: 'a red fox', aspectRatio: '16:9' });
    expect(images.length).toBeGreaterThan(0);
    const request = lastRequest();
    expect(request.path).toBe('/proxy/v1beta/models/gemini-flash-image:generateContent');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers['x-goog-api-key']).toBeUndefined();
    expect(request.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a red fox' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '16:9' } },
    });
    for (const image of images) {
      expect((await fileTypeFromBuffer(image.bytes))?.mime).toBe(image.mimeType);
    }
  });

  it('image editing: the instruction and the image inline, Base64 without a data-URL prefix', async () => {
    const source = await readInputImage(tinyPng());
    const images = await client.generateImages('gemini-flash-image', { prompt: 'invert the colours', image: source });
    expect(images[0]?.mimeType).toBe('image/png');
    const body = lastRequest().body as GenerateContentRequest;
    expect(body.contents[0]?.parts).toEqual([
      { text: 'invert the colours' },
      { inlineData: { mimeType: 'image/png', data: Buffer.from(tinyPng()).toString('base64') } },
    ]);
    const raw = JSON.stringify(body);
    expect(raw).not.toMatch(/inline_data|mime_type|data:image/);
  });

  it('messages: x-api-key, anthropic-version, stream true and every request field', async () => {
    const stream = client.streamMessage({
      model: 'claude-test',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'second' }] },
      ],
      max_tokens: 256,
      system: 'Be kind.',
      temperature: 0.5,
      top_p: 0.9,
      top_k: 10,
      stop_sequences: ['STOP'],
      metadata: { user_id: 'u-1' },
    });
    await stream.finalMessage();
    const request = lastRequest();
    expect(request.path).toBe('/proxy/v1/messages');
    expect(request.headers['x-api-key']).toBe(KEY);
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['x-goog-api-key']).toBeUndefined();
    expect(request.body).toMatchObject({
      model: 'claude-test',
      max_tokens: 256,
      system: 'Be kind.',
      stream: true,
      temperature: 0.5,
      top_p: 0.9,
      top_k: 10,
      stop_sequences: ['STOP'],
      metadata: { user_id: 'u-1' },
    });
    expect((request.body as { messages: unknown[] }).messages).toHaveLength(3);
  });

  it('streams every event kind, and the helpers agree with the raw events', async () => {
    const stream = client.streamMessage({
      model: 'claude-test',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'tell me [len:120]' }],
    });
    const events: MessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const kinds = new Set(events.map((e) => e.type));
    for (const kind of [
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
      'ping',
    ]) {
      expect(kinds).toContain(kind);
    }
    expect(events.at(-1)?.type).toBe('message_stop');
    const final = await stream.finalMessage();
    const deltas = events.flatMap((e) =>
      e.type === 'content_block_delta' && e.delta.type === 'text_delta' && 'text' in e.delta ? [e.delta.text] : [],
    );
    expect(final.text).toBe(deltas.join(''));
    expect(final.text.length).toBeGreaterThan(0);
    expect(final.stopReason).toMatch(/end_turn|max_tokens/);
    expect(final.usage.output_tokens).toBeGreaterThan(0);

    const again = client.streamMessage({
      model: 'claude-test',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'tell me [len:120]' }],
    });
    const texts: string[] = [];
    for await (const text of again.textDeltas()) texts.push(text);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe(final.text);
  });

  it('extracts images from several candidates and names them by their type', async () => {
    const images = await client.generateImages('gemini-flash-image', {
      prompt: 'two cats [images:2] [format:webp]',
      count: 2,
      seed: 42,
    });
    expect(images).toHaveLength(4);
    expect((lastRequest().body as GenerateContentRequest).generationConfig).toMatchObject({
      candidateCount: 2,
      seed: 42,
    });
    for (const image of images) {
      expect(image.extension).toBe('webp');
      expect((await fileTypeFromBuffer(image.bytes))?.mime).toBe('image/webp');
    }
    const jpegs = await client.generateImages('gemini-flash-image', { prompt: 'a dog [format:jpeg]' });
    expect(jpegs.map((i) => i.extension)).toEqual(['jpg']);
  });

  it('extracts images from the data-URL fallback', async () => {
    const images = await client.generateImages('gemini-flash-image', {
      prompt: 'a cow [fault:data-url] [format:jpeg]',
    });
    expect(images.length).toBeGreaterThan(0);
    expect(images[0]?.mimeType).toBe('image/jpeg');
    expect((await fileTypeFromBuffer(images[0]?.bytes ?? new Uint8Array()))?.mime).toBe('image/jpeg');
  });
});

describe('base URLs', () => {
  it.each([
    ['/proxy', '', '/proxy/v1/messages'],
    ['/proxy', '/', '/proxy/v1/messages'],
    ['/a/b', '/', '/a/b/v1/messages'],
    ['', '', '/v1/messages'],
    ['', '/', '/v1/messages'],
  ])('prefix %j with trailing %j', async (pathPrefix, trailing, expected) => {
    const emulator = await startEmulator({ pathPrefix, apiKey: KEY, streamDelayMs: 0 });
    const client = new GenAiClient({ baseUrl: `${emulator.url}${trailing}`, apiKey: KEY });
    try {
      await client
        .streamMessage({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .finalMessage();
      await client.generateText('model with space/and slash', 'x');
      expect(emulator.requests.map((r) => r.path)).toEqual([
        expected,
        `${expected.replace('/v1/messages', '')}/v1beta/models/model%20with%20space%2Fand%20slash:generateContent`,
      ]);
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
