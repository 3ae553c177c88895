/**
 * A hostile service never makes the client hold memory or a slot without
 * limit: an endless line, a stream that only pings or never ends, an answer
 * or an error page of hundreds of megabytes. Each against the emulator.
 */
import { startEmulator, type Emulator } from '@genbot/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GenAiClient, type GenAiClientOptions } from './client.js';
import { describeError } from './describe-error.js';
import { ResponseTooLargeError, ServiceFailedError, ServiceTimeoutError } from './errors.js';

const KEY = 'sk-limits-test-key';
const MiB = 1024 * 1024;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('bounds on what the service sends', () => {
  let emulator: Emulator;
  const clients: GenAiClient[] = [];

  function makeClient(options: Partial<GenAiClientOptions> = {}): GenAiClient {
    const client = new GenAiClient({ baseUrl: emulator.url, apiKey: KEY, retryBaseDelayMs: 1, ...options });
    clients.push(client);
    return client;
  }

  /** Streams `content`; what arrived before the stream failed, and how it failed. */
  async function stream(
    client: GenAiClient,
    content: string,
  ): Promise<{ kinds: string[]; text: string; error: unknown }> {
    const kinds: string[] = [];
    let text = '';
    const error = await failure(
      (async () => {
        for await (const event of client.streamMessage({
          model: 'claude-test',
          max_tokens: 100_000,
          messages: [{ role: 'user', content }],
        })) {
          kinds.push(event.type);
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta' && 'text' in event.delta) {
            text += String(event.delta.text);
          }
        }
      })(),
    );
    return { kinds, text, error };
  }

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: KEY, streamDelayMs: 1 });
  });

  beforeEach(() => {
    emulator.requests.length = 0;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await emulator.close();
  });

  it('ends a stream whose line never ends as too large, after the text before it, having read about the cap', async () => {
    const { text, error } = await stream(makeClient(), 'tell me [fault:endless-line]');
    expect(text).not.toBe('');
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(describeError(error)).toEqual({
      summary: 'The chat service sent more than we accept in one answer.',
      retryable: false,
    });
    await expect.poll(() => emulator.requests[0]?.responseBytes).toBeLessThan(8 * MiB);
    expect(emulator.requests).toHaveLength(1);
  });

  it('caps a whole stream of ordinary events', async () => {
    const { text, error } = await stream(makeClient({ maxResponseBytes: 64 * 1024 }), 'long [len:100000] [delay:0]');
    expect(text).not.toBe('');
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: 64 * 1024, operation: 'messages' });
  });

  it('times out a stream that only pings: a ping is no content', async () => {
    const started = performance.now();
    const { kinds, error } = await stream(makeClient({ textTimeoutMs: 300 }), 'wait [fault:only-pings] [delay:20]');
    expect(kinds.filter((kind) => kind === 'ping').length).toBeGreaterThan(3);
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect((error as Error).message).toMatch(/^The service did not answer within/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('ends a stream that keeps sending content past its total deadline', async () => {
    const client = makeClient({ textTimeoutMs: 5_000, streamTimeoutMs: 300 });
    const { text, error } = await stream(client, 'slow and long [len:2000] [delay:60]');
    expect(text).not.toBe('');
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect((error as Error).message).toMatch(/^The reply took longer than the .* a stream may take/);
  });

  it('refuses an image answer over the cap, without trying again', async () => {
    const client = makeClient({ maxResponseBytes: 1 * MiB });
    const error = await failure(client.generateImages('gemini-image', { prompt: 'a big one [mb:2]' }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(describeError(error).summary).toBe('The image service sent more than we accept in one answer.');
    expect(emulator.requests).toHaveLength(1);
    const fits = await client.generateImages('gemini-image', { prompt: 'a small one' });
    expect(fits).toHaveLength(1);
  });

  it('reads only the start of a huge error page, on every attempt', async () => {
    const error = await failure(makeClient({ maxRetries: 3 }).generateText('gemini-text', 'x [fault:huge-error=200]'));
    expect(error).toBeInstanceOf(ServiceFailedError);
    expect(error).toMatchObject({ status: 500, type: 'http_500' });
    expect((error as Error).message).toMatch(/^HTTP 500 http_500: <!DOCTYPE html>/);
    expect(emulator.requests).toHaveLength(4);
    await expect.poll(() => emulator.requests.every((r) => r.responseBytes !== undefined)).toBe(true);
    const sent = emulator.requests.map((r) => r.responseBytes ?? Number.POSITIVE_INFINITY);
    expect(Math.max(...sent)).toBeLessThan(16 * MiB);
  });
});
