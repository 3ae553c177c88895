import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AttachmentUnavailableError } from '@genbot/core/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadSlackFile, mayCarryToken, SlackDownloadError } from './download.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
let server: Server;
let other: Server;
let base = '';
let otherBase = '';
let requests = 0;

function listen(target: Server): Promise<string> {
  return new Promise((resolve) =>
    target.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(target.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  other = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  otherBase = await listen(other);
  server = createServer((request, response) => {
    requests += 1;
    if (request.headers.authorization !== 'Bearer xoxb-1') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!DOCTYPE html><html>Sign in</html>');
      return;
    }
    const routes: Record<string, () => void> = {
      '/big': () =>
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': '100' }).end(Buffer.alloc(100)),
      '/chunked-big': () => {
        response.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 10; i += 1) response.write(Buffer.alloc(10));
        response.end();
      },
      '/forbidden': () => response.writeHead(403).end(),
      '/gone': () => response.writeHead(404).end(),
      '/broken': () => response.writeHead(502).end(),
      '/hop': () => response.writeHead(302, { location: '/f.png' }).end(),
      '/away': () => response.writeHead(302, { location: `${otherBase}/f.png` }).end(),
      '/hang': () => undefined,
    };
    const route = routes[request.url ?? ''];
    if (route !== undefined) route();
    else response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  base = await listen(server);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

function get(path: string, extra: { maxBytes?: number; timeoutMs?: number; token?: string } = {}) {
  return downloadSlackFile(`${base}${path}`, {
    botToken: extra.token ?? 'xoxb-1',
    apiUrl: `${base}/api/`,
    ...(extra.maxBytes === undefined ? {} : { maxBytes: extra.maxBytes }),
    ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
  });
}

describe('downloadSlackFile', () => {
  it('fetches the bytes with the bot token', async () => {
    const file = await get('/f.png');
    expect(Buffer.from(file.bytes)).toEqual(PNG);
    expect(file).toMatchObject({ mimeType: 'image/png', size: PNG.length });
  });

  it('reports a sign-in page as a missing files:read scope, a permanent failure', async () => {
    const failure = get('/f.png', { token: 'xoxb-wrong' });
    await expect(failure).rejects.toThrow(/files:read/);
    await expect(failure).rejects.toMatchObject({ reason: 'not_allowed' });
  });

  it('reports a refusal and a missing file as permanent, a 5xx as worth another try', async () => {
    await expect(get('/forbidden')).rejects.toMatchObject({ reason: 'not_allowed' });
    await expect(get('/gone')).rejects.toMatchObject({ reason: 'deleted' });
    await expect(get('/broken')).rejects.toBeInstanceOf(SlackDownloadError);
  });

  it('refuses files over the limit, declared or streamed', async () => {
    await expect(get('/big', { maxBytes: 10 })).rejects.toMatchObject({ reason: 'too_large', size: 100 });
    await expect(get('/chunked-big', { maxBytes: 50 })).rejects.toMatchObject({ reason: 'too_large' });
  });

  it('follows redirects within Slack and refuses one that leaves it', async () => {
    expect(Buffer.from((await get('/hop')).bytes)).toEqual(PNG);
    const away = get('/away');
    await expect(away).rejects.toBeInstanceOf(AttachmentUnavailableError);
    await expect(away).rejects.toMatchObject({ reason: 'external' });
  });

  it('gives up on a file host that never answers', async () => {
    await expect(get('/hang', { timeoutMs: 200 })).rejects.toThrow(/timeout|aborted/i);
  });

  it('never sends the token to a foreign host', async () => {
    const before = requests;
    await expect(
      downloadSlackFile('https://evil.example/f.png', { botToken: 'xoxb-1', apiUrl: 'https://slack.com/api/' }),
    ).rejects.toThrow(/refusing/);
    expect(requests).toBe(before);
    expect(mayCarryToken(new URL('https://files.slack.com/files-pri/T1-F1/a.png'), 'https://slack.com/api/')).toBe(
      true,
    );
    expect(mayCarryToken(new URL('http://files.slack.com/x'), 'https://slack.com/api/')).toBe(false);
    expect(mayCarryToken(new URL('https://slack.com.evil.example/x'), 'https://slack.com/api/')).toBe(false);
  });
});
