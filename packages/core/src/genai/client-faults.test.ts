import { startEmulator, type Emulator } from '@genbot/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GenAiClient, type GenAiClientOptions } from './client.js';
import { describeError } from './describe-error.js';
import {
  BadResponseError,
  ModelNotFoundError,
  NetworkError,
  NoOutputError,
  ServiceError,
  ServiceFailedError,
  ServiceOverloadedError,
  ServiceRateLimitedError,
  ServiceTimeoutError,
  StreamCutError,
} from './errors.js';
import { captureLogs } from '../../testing/fixtures.js';

const KEY = 'sk-fault-test-key';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

function ask(client: GenAiClient, content: string, signal?: AbortSignal): Promise<string> {
  const stream = client.streamMessage(
    { model: 'claude-test', max_tokens: 200, messages: [{ role: 'user', content }] },
    signal === undefined ? {} : { signal },
  );
  return stream.finalMessage().then((m) => m.text);
}

describe('faults, retries and the errors callers see', () => {
  let emulator: Emulator;
  let logs: ReturnType<typeof captureLogs>;
  const clients: GenAiClient[] = [];

  function makeClient(options: Partial<GenAiClientOptions> = {}): GenAiClient {
    const client = new GenAiClient({
      baseUrl: emulator.url,
      apiKey: KEY,
      logger: logs.logger,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 50,
      ...options,
    });
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: KEY, streamDelayMs: 1 });
  });

  beforeEach(() => {
    emulator.requests.length = 0;
    logs = captureLogs();
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await emulator.close();
  });

  describe.each(['429', '500', '503', '529', 'reset'])('transient %s', (fault) => {
    it('is retried until it passes: messages', async () => {
      const text = await ask(makeClient(), `hi [fault:${fault}*2]`);
      expect(text).toContain('hi');
      expect(emulator.requests).toHaveLength(3);
      expect(logs.lines().filter((l) => l.msg === 'retrying service request')).toHaveLength(2);
    });

    it('is retried until it passes: images', async () => {
      const images = await makeClient().generateImages('gemini-image', { prompt: `cat [fault:${fault}*1]` });
      expect(images.length).toBeGreaterThan(0);
      expect(emulator.requests).toHaveLength(2);
    });
  });

  it.each([
    ['429', 429, ServiceRateLimitedError, 'rate_limit_error', 'RESOURCE_EXHAUSTED'],
    ['500', 500, ServiceFailedError, 'api_error', 'INTERNAL'],
    ['503', 503, ServiceOverloadedError, 'api_error', 'UNAVAILABLE'],
    ['529', 529, ServiceOverloadedError, 'overloaded_error', 'UNAVAILABLE'],
  ])(
    'a persistent %s fails after 1 + maxRetries attempts as its kind, with the service error type',
    async (fault, status, kind, messagesType, googleType) => {
      const client = makeClient({ maxRetries: 2 });
      const chat = await failure(ask(client, `hi [fault:${fault}]`));
      expect(chat).toBeInstanceOf(kind);
      expect(chat).toMatchObject({ status, retryable: true, operation: 'messages', model: 'claude-test' });
      expect(emulator.requests).toHaveLength(3);
      expect((chat as ServiceError).type).toBe(messagesType);
      expect((chat as ServiceError).requestId).toBeDefined();

      emulator.requests.length = 0;
      const image = await failure(client.generateImages('gemini-image', { prompt: `cat [fault:${fault}]` }));
      expect(image).toBeInstanceOf(kind);
      expect(emulator.requests).toHaveLength(3);
      expect((image as ServiceError).status).toBe(status);
      expect((image as ServiceError).type).toBe(googleType);
    },
  );

  it('honours retry-after, capped at retryMaxDelayMs', async () => {
    await ask(makeClient({ retryMaxDelayMs: 40 }), 'hi [fault:429*1]');
    await ask(makeClient({ retryBaseDelayMs: 10_000 }), 'ho [fault:429=0*1]');
    const delays = logs
      .lines()
      .filter((l) => l.msg === 'retrying service request')
      .map((l) => l.delayMs);
    expect(delays).toEqual([40, 0]);
  });

  it('an error event mid-stream reaches the caller after the text already delivered, never retried', async () => {
    const stream = makeClient().streamMessage({
      model: 'claude-test',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'story [fault:stream-error] [len:200]' }],
    });
    const received: string[] = [];
    const error = await failure(
      (async () => {
        for await (const text of stream.textDeltas()) received.push(text);
      })(),
    );
    expect(received.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ServiceOverloadedError);
    expect(error).toMatchObject({ type: 'overloaded_error', status: undefined, retryable: true });
    expect(emulator.requests).toHaveLength(1);
    expect(describeError(error).summary).toBe('The chat service is overloaded right now. Try again in a minute.');
  });

  it('a stream cut before message_stop is a stream_cut error, never retried', async () => {
    const error = await failure(ask(makeClient(), 'story [fault:stream-cut] [len:200]'));
    expect(error).toBeInstanceOf(StreamCutError);
    expect(emulator.requests).toHaveLength(1);
  });

  it('a persistent connection reset fails as a network error after the retries', async () => {
    const error = await failure(makeClient({ maxRetries: 1 }).generateText('gemini-text', 'x [fault:reset]'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ connectionReset: true, retryable: true });
    expect(emulator.requests).toHaveLength(2);
  });

  it('times out a slow first byte without retrying: images and streams', async () => {
    const client = makeClient({ imageTimeoutMs: 150, textTimeoutMs: 150 });
    const image = await failure(client.generateImages('gemini-image', { prompt: 'cat [fault:slow=5000]' }));
    expect(image).toBeInstanceOf(ServiceTimeoutError);
    expect(image).toMatchObject({ operation: 'image' });
    const chat = await failure(ask(client, 'hi [fault:slow=5000]'));
    expect(chat).toBeInstanceOf(ServiceTimeoutError);
    expect(chat).toMatchObject({ operation: 'messages' });
    expect(emulator.requests).toHaveLength(2);
  });

  it('times out a stream that goes idle between events', async () => {
    const client = makeClient({ textTimeoutMs: 150 });
    const stream = client.streamMessage({
      model: 'claude-test',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'hi [delay:3000]' }],
    });
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of stream) seen.push(event.type);
      })(),
    );
    expect(seen[0]).toBe('message_start');
    expect(error).toBeInstanceOf(ServiceTimeoutError);
  });

  it('a per-call timeout overrides the client default', async () => {
    const error = await failure(makeClient().generateText('gemini-text', 'x [fault:slow=5000]', { timeoutMs: 100 }));
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect(error).toMatchObject({ operation: 'text' });
  });

  it('a prompt blocked for safety is a NoOutputError with the block reason', async () => {
    const error = await failure(makeClient().generateImages('gemini-image', { prompt: 'bad [fault:safety]' }));
    expect(error).toBeInstanceOf(NoOutputError);
    expect(error).toMatchObject({ wanted: 'image', blockReason: expect.any(String) as unknown, safetyBlocked: true });
    expect(describeError(error).summary).toMatch(/^The model declined this for safety reasons/);
    expect(emulator.requests).toHaveLength(1);

    const text = await failure(makeClient().generateText('gemini-text', 'bad [fault:safety]'));
    expect(text).toMatchObject({ wanted: 'text', safetyBlocked: true });
  });

  it('a candidate without an image carries its finish reason', async () => {
    const error = await failure(makeClient().generateImages('gemini-image', { prompt: 'cat [fault:no-image]' }));
    expect(error).toBeInstanceOf(NoOutputError);
    expect((error as NoOutputError).candidates[0]?.finishReason).toBe('NO_IMAGE');
    expect((error as NoOutputError).safetyBlocked).toBe(false);
    expect(describeError(error).summary).toBe('The model gave no image this time.');

    const safety = await failure(
      makeClient().generateImages('gemini-image', { prompt: 'cat [fault:no-image=IMAGE_SAFETY]' }),
    );
    expect((safety as NoOutputError).candidates[0]?.finishReason).toBe('IMAGE_SAFETY');
    expect((safety as NoOutputError).safetyBlocked).toBe(true);
  });

  it('image data that is not Base64 is a bad_response, not retried', async () => {
    const error = await failure(makeClient().generateImages('gemini-image', { prompt: 'cat [fault:bad-base64]' }));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(emulator.requests).toHaveLength(1);
  });

  it('an unknown model is a 404 naming the model and its variable, not retried', async () => {
    const client = makeClient();
    const image = await failure(client.generateImages('img-not-found', { prompt: 'cat' }));
    expect(image).toBeInstanceOf(ModelNotFoundError);
    expect(image).toMatchObject({ status: 404, type: 'NOT_FOUND', retryable: false });
    expect(describeError(image).summary).toBe(
      "The image service does not know the model 'img-not-found': check IMAGE_MODEL.",
    );
    const missing = await failure(
      client
        .streamMessage({ model: 'claude-not-found', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
        .finalMessage(),
    );
    expect(missing).toBeInstanceOf(ModelNotFoundError);
    expect(missing).toMatchObject({ status: 404, type: 'not_found_error' });
    expect(describeError(missing).summary).toContain('CHAT_MODEL');
    expect(emulator.requests.filter((r) => r.path.includes('not-found'))).toHaveLength(1);
  });

  it('wrong credentials are refused once, not retried', async () => {
    const client = new GenAiClient({ baseUrl: emulator.url, apiKey: 'wrong-key', retryBaseDelayMs: 5 });
    clients.push(client);
    const error = await failure(client.generateText('gemini-text', 'x'));
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(describeError(error).summary).toContain('GENAI_API_KEY');
    expect(emulator.requests).toHaveLength(1);
  });

  it("the caller's abort rejects with its reason, during the request and during a retry wait", async () => {
    const client = makeClient({ retryBaseDelayMs: 60_000, retryMaxDelayMs: 60_000 });
    const slow = new AbortController();
    const reason = new Error('message deleted');
    const pending = client.generateText('gemini-text', 'x [fault:slow=5000]', { signal: slow.signal });
    setImmediate(() => slow.abort(reason));
    expect(await failure(pending)).toBe(reason);

    const waiting = new AbortController();
    const retryLogs = captureLogs();
    const watcher = new GenAiClient({
      baseUrl: emulator.url,
      apiKey: KEY,
      retryBaseDelayMs: 60_000,
      retryMaxDelayMs: 60_000,
      logger: retryLogs.logger.child({}, { level: 'warn' }),
    });
    clients.push(watcher);
    const during = watcher.generateText('gemini-text', 'y [fault:500]', { signal: waiting.signal });
    await expect.poll(() => retryLogs.lines().some((l) => l.msg === 'retrying service request')).toBe(true);
    waiting.abort();
    const aborted = await failure(during);
    expect(aborted).not.toBeInstanceOf(ServiceError);
    expect((aborted as Error).name).toBe('AbortError');

    const streamAbort = new AbortController();
    const stream = client.streamMessage(
      { model: 'claude-test', max_tokens: 200, messages: [{ role: 'user', content: 'long [len:400] [delay:200]' }] },
      { signal: streamAbort.signal },
    );
    const streamed = failure(
      (async () => {
        for await (const event of stream) if (event.type === 'message_start') streamAbort.abort(reason);
      })(),
    );
    expect(await streamed).toBe(reason);
  });
});
