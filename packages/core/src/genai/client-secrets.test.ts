import { startEmulator, type Emulator } from '@genbot/emulator';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenAiClient } from './client.js';
import { describeError } from './describe-error.js';
import { captureLogs } from '../../testing/fixtures.js';

const KEY = 'sk-DISTINCTIVE-7f3a9c1e';

/** A misbehaving proxy that echoes the credentials it received in its error answers. */
async function startEchoingProxy(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const echoed = String(req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? req.headers.authorization ?? '');
    req.resume();
    if (req.url?.endsWith('/v1/messages') === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message: `bad key ${echoed}` } })}\n\n`,
      );
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { code: 400, message: `API key not valid: ${echoed}`, status: 'INVALID_ARGUMENT' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the API key never leaks', () => {
  let emulator: Emulator;
  let strangerEmulator: Emulator;
  let proxy: { url: string; server: Server };
  const logs = captureLogs('trace');
  const clients: GenAiClient[] = [];

  function client(baseUrl: string, timeouts = 150): GenAiClient {
    const made = new GenAiClient({
      baseUrl,
      apiKey: KEY,
      logger: logs.logger,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 20,
      maxRetries: 1,
      imageTimeoutMs: timeouts,
      textTimeoutMs: timeouts,
    });
    clients.push(made);
    return made;
  }

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: KEY, streamDelayMs: 1 });
    strangerEmulator = await startEmulator({ apiKey: 'another-key', streamDelayMs: 1 });
    proxy = await startEchoingProxy();
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await emulator.close();
    await strangerEmulator.close();
    await new Promise((resolve) => proxy.server.close(resolve));
  });

  it('in no error and no log line, whatever fails', async () => {
    const ok = client(emulator.url);
    const refused = client(strangerEmulator.url);
    // Only the slow-first-byte call needs the short timeout; the echoing proxy must answer, however busy the machine.
    const echoing = client(proxy.url, 10_000);
    const chat = (c: GenAiClient, content: string): Promise<unknown> =>
      c.streamMessage({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content }] }).finalMessage();

    const calls: Array<Promise<unknown>> = [
      refused.generateText('gemini-text', 'x'),
      refused.generateImages('gemini-image', { prompt: 'x' }),
      chat(refused, 'x'),
      ok.generateText('gemini-text', 'x [fault:429]'),
      ok.generateImages('gemini-image', { prompt: 'x [fault:reset]' }),
      ok.generateImages('gemini-image', { prompt: 'x [fault:slow=3000]' }),
      ok.generateImages('gemini-image', { prompt: 'x [fault:safety]' }),
      ok.generateImages('not-found-model', { prompt: 'x' }),
      chat(ok, 'x [fault:stream-error]'),
      chat(ok, 'x [fault:stream-cut]'),
      chat(ok, 'x [fault:529]'),
      echoing.generateText('gemini-text', 'x'),
      echoing.generateImages('gemini-image', { prompt: 'x' }),
      chat(echoing, 'x'),
    ];
    const results = await Promise.allSettled(calls);
    const errors = results.map((result) => (result.status === 'rejected' ? (result.reason as unknown) : undefined));
    expect(errors.every((e) => e instanceof Error)).toBe(true);

    for (const error of errors) {
      const err = error as Error;
      for (const text of [
        err.message,
        String(err),
        JSON.stringify(err),
        err.stack ?? '',
        inspect(err, { depth: 10 }),
        describeError(err).summary,
      ]) {
        expect(text).not.toContain(KEY);
      }
    }
    expect(errors.filter((e) => (e as Error).message.includes('[REDACTED]'))).toHaveLength(3);
    const logged = logs.text();
    expect(logged).toContain('retrying service request');
    expect(logged).toContain('service request');
    expect(logged).not.toContain(KEY);
  });
});
