import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cappedDownload } from './capped-download.js';

const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/sized') res.writeHead(200, { 'content-length': body.length }).end(body);
    else if (req.url === '/chunked') {
      res.writeHead(200);
      res.write(body.subarray(0, 100_000));
      res.end(body.subarray(100_000));
    } else {
      const packed = gzipSync(body);
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': packed.length }).end(packed);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string, maxBytes = 1_000_000) =>
  cappedDownload(`${base}${path}`, { allowed: () => true, maxBytes, timeoutMs: 5_000 });

describe('cappedDownload', () => {
  it('reads the exact bytes, whether the length is declared, absent, or that of a compressed transfer', async () => {
    for (const path of ['/sized', '/chunked', '/gzip']) {
      const { bytes } = await get(path);
      expect(Buffer.from(bytes).equals(body)).toBe(true);
    }
  });

  it('stops past the cap, whatever was declared', async () => {
    for (const path of ['/sized', '/chunked', '/gzip']) {
      await expect(get(path, 200_000)).rejects.toMatchObject({ reason: 'too_large' });
    }
  });
});
