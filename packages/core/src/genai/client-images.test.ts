/**
 * Image answers are read from their bytes: the Base64 is never a string of
 * megabytes, and the answer is freed once its images are decoded. A server
 * of our own sends known images, with and without a declared length.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPng } from '../../testing/fixtures.js';
import { GenAiClient } from './client.js';
import { releaseBytes } from './owned-bytes.js';

const MiB = 1024 * 1024;

function image(size: number, seed: number): Buffer {
  return Buffer.concat([Buffer.from(tinyPng()), Buffer.from(Array.from({ length: size }, (_, i) => (i * seed) % 253))]);
}

const images = [image(3 * MiB, 7), image(2 * MiB + 5, 11)];
const answer = Buffer.from(
  JSON.stringify({
    candidates: [
      {
        content: {
          parts: [
            { text: 'two of them' },
            ...images.map((bytes) => ({ inlineData: { mimeType: 'image/png', data: bytes.toString('base64') } })),
          ],
        },
      },
    ],
  }),
);

describe('image answers', () => {
  let server: Server;
  let client: GenAiClient;

  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        if (request.url?.includes('chunked') === true) {
          // No content-length: sent in pieces of uneven size, as a gateway streaming it would.
          response.writeHead(200, { 'content-type': 'application/json' });
          for (let at = 0; at < answer.byteLength; at += 100_003) response.write(answer.subarray(at, at + 100_003));
          response.end();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.byteLength });
        response.end(answer);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    client = new GenAiClient({ baseUrl: `http://127.0.0.1:${String(port)}`, apiKey: 'k' });
  });

  afterAll(async () => {
    await client.close();
    server.close();
  });

  it.each(['gemini-image', 'gemini-image-chunked'])('decodes every image of %s exactly', async (model) => {
    const decoded = await client.generateImages(model, { prompt: 'two' });
    expect(
      decoded.map((item) => Buffer.from(item.bytes).equals(images[decoded.indexOf(item)] ?? Buffer.alloc(0))),
    ).toEqual([true, true]);
  });

  it.each(['gemini-image', 'gemini-image-chunked'])(
    'decodes the images of %s in the answer itself, freed with them',
    async (model) => {
      const decoded = await client.generateImages(model, { prompt: 'two' });
      const [first, second] = decoded;
      // One answer in memory, a bit larger than its images' Base64.
      expect(first?.bytes.buffer).toBe(second?.bytes.buffer);
      const base64Bytes = images.reduce((total, bytes) => total + Math.ceil(bytes.byteLength / 3) * 4, 0);
      expect(first?.bytes.buffer.byteLength).toBeGreaterThan(base64Bytes);
      releaseBytes(first?.bytes ?? new Uint8Array());
      expect(decoded.map((item) => item.bytes.byteLength)).toEqual([0, 0]);
    },
  );

  it('hands strings, never bytes, to a caller of generateContent', async () => {
    const response = await client.generateContent('gemini-image', { contents: [] }, { auth: 'api-key' });
    const data = response.candidates?.[0]?.content?.parts?.[1]?.inlineData?.data;
    expect(typeof data).toBe('string');
    expect(data).toBe(images[0]?.toString('base64'));
  });
});
