import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadSlackFile, mayCarryToken, SlackDownloadError } from './download.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.headers.authorization !== 'Bearer xoxb-1') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><html>Sign in</html>');
      return;
    }
    if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': '100' }).end(Buffer.alloc(100));
      return;
    }
    response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('downloadSlackFile', () => {
  it('fetches the bytes with the bot token', async () => {
    const file = await downloadSlackFile(`${base}/f.png`, { botToken: 'xoxb-1', apiUrl: `${base}/api/` });
    expect(Buffer.from(file.bytes)).toEqual(PNG);
    expect(file).toMatchObject({ mimeType: 'image/png', size: PNG.length });
  });

  it('reports a sign-in page instead of handing it on', async () => {
    await expect(downloadSlackFile(`${base}/f.png`, { botToken: 'xoxb-wrong', apiUrl: `${base}/api/` })).rejects.toThrow(/files:read/);
  });

  it('refuses files over the limit', async () => {
    await expect(downloadSlackFile(`${base}/big`, { botToken: 'xoxb-1', apiUrl: `${base}/api/`, maxBytes: 10 })).rejects.toBeInstanceOf(SlackDownloadError);
  });

  it('never sends the token to a foreign host', async () => {
    await expect(downloadSlackFile('https://evil.example/f.png', { botToken: 'xoxb-1', apiUrl: 'https://slack.com/api/' })).rejects.toThrow(/refusing/);
    expect(mayCarryToken(new URL('https://files.slack.com/files-pri/T1-F1/a.png'), 'https://slack.com/api/')).toBe(true);
    expect(mayCarryToken(new URL('http://files.slack.com/x'), 'https://slack.com/api/')).toBe(false);
    expect(mayCarryToken(new URL('https://slack.com.evil.example/x'), 'https://slack.com/api/')).toBe(false);
  });
});
