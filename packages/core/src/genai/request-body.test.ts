import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INLINE_IMAGE, requestBody } from './request-body.js';

const request = (data: string) => ({
  contents: [
    {
      role: 'user',
      parts: [{ text: 'make it "grey" \u2014 \u0000 please' }, { inlineData: { mimeType: 'image/png', data } }],
    },
  ],
});

describe('requestBody', () => {
  it('is the JSON of the request with the image as Base64, for any length across slices', () => {
    for (const length of [0, 1, 2, 3, 786_431, 786_432, 786_433, 2 * 786_432 + 2]) {
      const image = randomBytes(length);
      const body = requestBody(request(INLINE_IMAGE), image);
      expect(Buffer.isBuffer(body)).toBe(true);
      expect(body.toString('utf8')).toBe(JSON.stringify(request(image.toString('base64'))));
    }
  });

  it('is the plain JSON without an image', () => {
    expect(requestBody({ a: 1 })).toBe('{"a":1}');
  });

  it('refuses a request without exactly one place for the image', () => {
    expect(() => requestBody({ a: 1 }, new Uint8Array(3))).toThrow(/exactly one INLINE_IMAGE/);
    expect(() => requestBody([INLINE_IMAGE, INLINE_IMAGE], new Uint8Array(3))).toThrow(/exactly one/);
  });
});
