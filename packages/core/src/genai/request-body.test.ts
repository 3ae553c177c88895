import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INLINE_IMAGE, requestBody, type StreamedBody } from './request-body.js';

const request = (data: string) => ({
  contents: [
    {
      role: 'user',
      parts: [{ text: 'make it "grey" \u2014 \u0000 please' }, { inlineData: { mimeType: 'image/png', data } }],
    },
  ],
});

async function bytesOf(body: StreamedBody): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body.chunks()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('requestBody', () => {
  it('is the JSON of the request with the image as Base64, its length said first, for any length across slices', async () => {
    for (const length of [0, 1, 2, 3, 49_151, 49_152, 49_153, 4 * 49_152 + 2, 786_433]) {
      const image = randomBytes(length);
      const body = requestBody(request(INLINE_IMAGE), image);
      const bytes = await bytesOf(body);
      expect(bytes.toString('utf8')).toBe(JSON.stringify(request(image.toString('base64'))));
      expect(body.length).toBe(bytes.length);
    }
  });

  it('makes the same bytes again for another attempt', async () => {
    const body = requestBody(request(INLINE_IMAGE), randomBytes(100_000));
    expect((await bytesOf(body)).equals(await bytesOf(body))).toBe(true);
  });

  it('encodes a large image over many turns of the loop, so a timer due meanwhile runs before it is done', async () => {
    const body = requestBody(request(INLINE_IMAGE), randomBytes(2 * 1024 * 1024));
    let chunks = 0;
    let chunksWhenTimerRan: number | undefined;
    setTimeout(() => {
      chunksWhenTimerRan = chunks;
    }, 0);
    for await (const _chunk of body.chunks()) {
      chunks += 1;
      // A socket's write of the chunk; the next is pulled once it is taken.
      const until = performance.now() + 0.1;
      while (performance.now() < until) {
        // Busy, as the write is.
      }
    }
    expect(chunks).toBeGreaterThan(40);
    expect(chunksWhenTimerRan).toBeDefined();
    expect(chunksWhenTimerRan).toBeLessThan(chunks);
  });

  it('is the plain JSON without an image', () => {
    expect(requestBody({ a: 1 })).toBe('{"a":1}');
  });

  it('refuses a request without exactly one place for the image', () => {
    expect(() => requestBody({ a: 1 }, new Uint8Array(3))).toThrow(/exactly one INLINE_IMAGE/);
    expect(() => requestBody([INLINE_IMAGE, INLINE_IMAGE], new Uint8Array(3))).toThrow(/exactly one/);
  });
});
