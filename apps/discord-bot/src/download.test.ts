import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadAttachment, encodeLocation, mayFetch } from './download.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
let server: Server;
let other: Server;
let origin = '';
let otherOrigin = '';
const seen: string[] = [];

function listen(target: Server): Promise<string> {
  return new Promise((resolve) =>
    target.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(target.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  other = createServer((_request, response) => response.writeHead(200).end(PNG));
  otherOrigin = await listen(other);
  server = createServer((request, response) => {
    seen.push(request.url ?? '');
    const routes: Record<string, () => void> = {
      '/expired.png': () => response.writeHead(404).end('This content is no longer available.'),
      '/away.png': () => response.writeHead(302, { location: `${otherOrigin}/x.png` }).end(),
      '/big.png': () => {
        response.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 10; i += 1) response.write(Buffer.alloc(10));
        response.end();
      },
      '/hang.png': () => undefined,
    };
    const route = routes[request.url ?? ''];
    if (route !== undefined) route();
    else response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  origin = await listen(server);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

function ref(path: string) {
  return {
    id: encodeLocation({ url: `${origin}${path}`, channelId: '1', messageId: '2', attachmentId: '3' }),
    name: 'a.png',
  };
}

describe('downloadAttachment', () => {
  it('fetches from the configured origin', async () => {
    const file = await downloadAttachment(ref('/ok.png'), { apiOrigin: origin });
    expect(Buffer.from(file.bytes)).toEqual(PNG);
    expect(file.mimeType).toBe('image/png');
  });

  it('fetches the message again for a fresh URL when the stored one has expired', async () => {
    const asked: unknown[] = [];
    const file = await downloadAttachment(ref('/expired.png'), {
      apiOrigin: origin,
      refetch: async (where) => {
        asked.push(where);
        return `${origin}/fresh.png`;
      },
    });
    expect(Buffer.from(file.bytes)).toEqual(PNG);
    expect(asked).toEqual([{ url: `${origin}/expired.png`, channelId: '1', messageId: '2', attachmentId: '3' }]);
  });

  it('reads the URL of an image kept only as its message and attachment ids', async () => {
    const where = { url: '', channelId: '1', messageId: '2', attachmentId: '3' };
    const asked: unknown[] = [];
    const file = await downloadAttachment(
      { id: encodeLocation(where), name: 'v1.png' },
      {
        apiOrigin: origin,
        refetch: async (location) => {
          asked.push(location);
          return `${origin}/fresh.png`;
        },
      },
    );
    expect(Buffer.from(file.bytes)).toEqual(PNG);
    expect(asked).toEqual([where]);
  });

  it('reports an attachment gone from its message as deleted', async () => {
    await expect(
      downloadAttachment(ref('/expired.png'), { apiOrigin: origin, refetch: async () => undefined }),
    ).rejects.toMatchObject({ reason: 'deleted' });
  });

  it('never fetches a host off the list, first or after a redirect', async () => {
    const before = seen.length;
    await expect(
      downloadAttachment({ id: 'http://169.254.169.254/latest/meta-data/', name: 'a.png' }, { apiOrigin: origin }),
    ).rejects.toMatchObject({ reason: 'external' });
    expect(seen.length).toBe(before);
    await expect(downloadAttachment(ref('/away.png'), { apiOrigin: origin })).rejects.toMatchObject({
      reason: 'external',
    });
    expect(mayFetch(new URL('https://cdn.discordapp.com/attachments/1/2/a.png'), origin)).toBe(true);
    expect(mayFetch(new URL('https://media.discordapp.net/attachments/1/2/a.png'), origin)).toBe(true);
    expect(mayFetch(new URL('http://cdn.discordapp.com/attachments/1/2/a.png'), origin)).toBe(false);
    expect(mayFetch(new URL('https://cdn.discordapp.com.evil.example/a.png'), origin)).toBe(false);
  });

  it('caps the size while streaming and gives up on a host that never answers', async () => {
    await expect(downloadAttachment(ref('/big.png'), { apiOrigin: origin, maxBytes: 50 })).rejects.toMatchObject({
      reason: 'too_large',
    });
    await expect(downloadAttachment(ref('/hang.png'), { apiOrigin: origin, timeoutMs: 200 })).rejects.toThrow(
      /timeout|aborted/i,
    );
  });
});
