import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';
import type { Emulator } from './server.js';
import { postJson, readUntilCut } from './http-test-client.js';

const MESSAGES = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };
const open: Emulator[] = [];

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  const emulator = await startEmulator(options);
  open.push(emulator);
  return emulator;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((emulator) => emulator.close()));
});

function chat(prompt: string, stream = false) {
  return { model: 'claude-x', max_tokens: 100, stream, messages: [{ role: 'user', content: prompt }] };
}

describe('routing', () => {
  it('serves only under the path prefix, whatever its slashes', async () => {
    const emulator = await start({ pathPrefix: 'proxy/' });
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/proxy$/);
    const origin = new URL(emulator.url).origin;
    const text = { contents: [{ parts: [{ text: 'hi' }] }] };
    expect(
      (await postJson(`${emulator.url}/v1beta/models/gemini-x:generateContent`, text, { 'x-goog-api-key': 'k' }))
        .status,
    ).toBe(200);
    expect((await postJson(`${emulator.url}/v1/messages`, chat('hi'), MESSAGES)).status).toBe(200);
    const outside = await postJson(`${origin}/v1beta/models/gemini-x:generateContent`, text, { 'x-goog-api-key': 'k' });
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    const messagesOutside = await postJson(`${origin}/v1/messages`, chat('hi'), MESSAGES);
    expect(messagesOutside.status).toBe(404);
  });

  it('answers 404 in the matching error shape for unknown paths and methods', async () => {
    const emulator = await start();
    expect(emulator.url).not.toMatch(/\/$/);
    const google = await fetch(`${emulator.url}/v1beta/models/gemini-x:generateContent`);
    expect(google.status).toBe(404);
    expect(await google.json()).toMatchObject({ error: { status: 'NOT_FOUND' } });
    const anthropic = await postJson(`${emulator.url}/v1/complete`, {}, MESSAGES);
    expect(anthropic.status).toBe(404);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});

describe('recording', () => {
  it('records every request in order, rejected ones included, with lower-cased headers and parsed bodies', async () => {
    const emulator = await start({ pathPrefix: '/gw' });
    await postJson(`${emulator.url}/v1/messages`, chat('one'), { 'X-Api-Key': 'k', 'Anthropic-Version': '2023-06-01' });
    await postJson(`${emulator.url}/v1/messages`, chat('two'), {});
    await postJson(`${emulator.url}/v1beta/models/m:generateContent?alt=json`, '{broken', { 'x-goog-api-key': 'k' });
    expect(emulator.requests.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/gw/v1/messages'],
      ['POST', '/gw/v1/messages'],
      ['POST', '/gw/v1beta/models/m:generateContent?alt=json'],
    ]);
    expect(emulator.requests[0]?.headers).toMatchObject({ 'x-api-key': 'k', 'anthropic-version': '2023-06-01' });
    expect(emulator.requests[0]?.body).toEqual(chat('one'));
    expect(emulator.requests[1]?.headers['x-api-key']).toBeUndefined();
    expect(emulator.requests[2]?.body).toBe('{broken');
  });

  it('keeps no log when a long-running emulator turns recording off', async () => {
    const emulator = await start({ recordRequests: false });
    const answer = await postJson(`${emulator.url}/v1/messages`, chat('one'), {
      'X-Api-Key': 'k',
      'Anthropic-Version': '2023-06-01',
    });
    expect(answer.status).toBe(200);
    expect(emulator.requests).toEqual([]);
  });
});

describe('credentials', () => {
  it('accepts any non-empty key when none is configured', async () => {
    const emulator = await start();
    expect(
      (await postJson(`${emulator.url}/v1/messages`, chat('hi'), { ...MESSAGES, 'x-api-key': 'anything' })).status,
    ).toBe(200);
  });

  it('accepts any credential style when relaxed, still checking the key', async () => {
    const emulator = await start({ relaxCredentials: true, apiKey: 'k' });
    const image = { contents: [{ parts: [{ text: 'a dog' }] }], generationConfig: { responseModalities: ['IMAGE'] } };
    const url = `${emulator.url}/v1beta/models/gemini-x:generateContent`;
    expect((await postJson(url, image, { 'x-goog-api-key': 'k' })).status).toBe(200);
    expect((await postJson(url, image, { 'x-goog-api-key': 'other' })).status).toBe(401);
    expect((await postJson(url, image, {})).status).toBe(403);
    const anthropicVersion = { 'anthropic-version': '2023-06-01' };
    expect(
      (await postJson(`${emulator.url}/v1/messages`, chat('hi'), { ...anthropicVersion, authorization: 'Bearer k' }))
        .status,
    ).toBe(200);
    expect(
      (await postJson(`${emulator.url}/v1/messages`, chat('hi'), { ...anthropicVersion, 'x-goog-api-key': 'k' }))
        .status,
    ).toBe(200);
  });
});

describe('close', () => {
  it('ends open streams and keep-alive sockets promptly', async () => {
    const emulator = await startEmulator({ streamDelayMs: 60_000 });
    const keepAlive = await postJson(`${emulator.url}/v1/messages`, chat('warm'), MESSAGES);
    await keepAlive.text();
    const response = await postJson(`${emulator.url}/v1/messages`, chat('never ends', true), MESSAGES);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('message_start');
    reader?.releaseLock();
    await emulator.close();
    const rest = await readUntilCut(response);
    expect(rest.text).not.toContain('message_stop');
  });
});

describe('main', () => {
  it('runs as a process and prints its URL as one line', async () => {
    const tsx = resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
    const child = spawn(tsx, [resolve(import.meta.dirname, 'main.ts'), '--port', '0', '--prefix', '/p'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    try {
      const lines = createInterface({ input: child.stdout });
      const [url] = (await once(lines, 'line')) as [string];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p$/);
      const reply = await postJson(`${url}/v1/messages`, chat('from a process'), MESSAGES);
      expect(reply.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
