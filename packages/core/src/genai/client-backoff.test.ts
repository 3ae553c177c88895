import { startEmulator, type Emulator } from '@genbot/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GenAiClient } from './client.js';
import { captureLogs } from '../../testing/fixtures.js';
import { eventually } from '@genbot/test-servers';

const KEY = 'sk-backoff-test-key';
const HOLD = 'service pushed back: holding every request';

function ask(client: GenAiClient, content: string, signal?: AbortSignal): Promise<string> {
  const options = signal === undefined ? {} : { signal };
  return client
    .streamMessage({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content }] }, options)
    .finalMessage()
    .then((m) => m.text);
}

describe('GenAiClient backs off globally when the service pushes back', () => {
  let emulator: Emulator;
  let logs: ReturnType<typeof captureLogs>;
  let client: GenAiClient;
  /** Date.now() at which each emulator request was first seen; polling only ever records late, never early. */
  let seenAt: number[];
  let watcher: NodeJS.Timeout;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: KEY, streamDelayMs: 1 });
  });

  beforeEach(() => {
    emulator.requests.length = 0;
    logs = captureLogs();
    client = new GenAiClient({
      baseUrl: emulator.url,
      apiKey: KEY,
      logger: logs.logger,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 5_000,
    });
    seenAt = [];
    watcher = setInterval(() => {
      while (seenAt.length < emulator.requests.length) seenAt.push(Date.now());
    }, 1);
  });

  afterEach(async () => {
    clearInterval(watcher);
    await client.close();
  });

  afterAll(async () => {
    await emulator.close();
  });

  function holdLines(): Array<Record<string, unknown>> {
    return logs.lines().filter((line) => line.msg === HOLD);
  }

  it('a 429 with retry-after 1 holds every request of the client, new ones and the retry, until it passes', async () => {
    const first = ask(client, 'first [fault:429=1*1]');
    await eventually(() => holdLines().length === 1);
    const closedAt = holdLines()[0]?.time as number;
    const others = [1, 2, 3, 4].map((n) => ask(client, `other ${n}`));

    const texts = await Promise.all([first, ...others]);
    expect(texts.every((text) => text.length > 0)).toBe(true);
    // The 429, then the retry and the four others: nobody reached the service while the gate was closed.
    expect(emulator.requests).toHaveLength(6);
    await eventually(() => seenAt.length === 6);
    for (const at of seenAt.slice(1)) expect(at - closedAt).toBeGreaterThanOrEqual(990);
    expect(holdLines()).toHaveLength(1);
    expect(holdLines()[0]).toMatchObject({ level: 40, delayMs: 1_000, status: 429, operation: 'messages' });
  });

  it('holds image requests too, and a 529 without retry-after closes the gate for the backoff delay', async () => {
    const slow = new GenAiClient({
      baseUrl: emulator.url,
      apiKey: KEY,
      logger: logs.logger,
      retryBaseDelayMs: 400,
      retryMaxDelayMs: 400,
    });
    try {
      const first = slow.generateImages('gemini-image', { prompt: 'a boat [fault:529*1]' });
      await eventually(() => holdLines().length === 1);
      const hold = holdLines()[0] ?? {};
      expect(hold).toMatchObject({ status: 529, operation: 'image' });
      const delayMs = hold.delayMs as number;
      expect(delayMs).toBeGreaterThanOrEqual(200);
      const other = slow.generateImages('gemini-image', { prompt: 'a lake' });
      await Promise.all([first, other]);
      await eventually(() => seenAt.length === 3);
      for (const at of seenAt.slice(1)) expect(at - (hold.time as number)).toBeGreaterThanOrEqual(delayMs - 10);
    } finally {
      await slow.close();
    }
  });

  it('a caller waiting at the closed gate can abort, and never reaches the service', async () => {
    // Fault counts are per identical request for the emulator's lifetime: a prompt of its own.
    const first = ask(client, 'aborting [fault:429=1*1]');
    await eventually(() => holdLines().length === 1);
    const controller = new AbortController();
    const waiting = ask(client, 'never sent', controller.signal);
    const reason = new Error('trigger deleted');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await first;
    const contents = emulator.requests.map((r) => JSON.stringify(r.body));
    expect(contents.some((body) => body.includes('never sent'))).toBe(false);
  });
});
