import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BadResponseError } from './errors.js';
import { UsageError } from '../errors.js';
import { extractImages, MAX_INLINE_IMAGE_BYTES, readInputImage } from './images.js';
import { base64, gifHeader, heicHeader, jpegHeader, tinyPng, webpHeader } from '../../testing/fixtures.js';
import { RawText } from './raw-text.js';
import type { GenerateContentResponse } from './types.js';

function captureLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

describe('extractImages', () => {
  it('decodes inlineData parts across all candidates, named by their MIME type', async () => {
    const response: GenerateContentResponse = {
      candidates: [
        {
          content: {
            parts: [{ text: 'here you go' }, { inlineData: { mimeType: 'image/png', data: base64(tinyPng()) } }],
          },
        },
        { content: { parts: [{ inlineData: { mimeType: 'image/jpeg', data: base64(jpegHeader()) } }] } },
      ],
    };
    const images = await extractImages(response);
    expect(images.map((i) => [i.mimeType, i.extension])).toEqual([
      ['image/png', 'png'],
      ['image/jpeg', 'jpg'],
    ]);
    expect(images[0]?.bytes).toEqual(tinyPng());
    expect(images[0]?.detectedMimeType).toBeUndefined();
  });

  it('skips inlineData parts with empty data', async () => {
    const response: GenerateContentResponse = {
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: '' } }] } }],
    };
    expect(await extractImages(response)).toEqual([]);
  });

  it('falls back to data URLs in text parts only when no part has inline data', async () => {
    const markdown = `Sure! ![image](data:image/webp;base64,${base64(webpHeader())}) and data:image/gif;base64,${base64(gifHeader())}`;
    const fallback = await extractImages({ candidates: [{ content: { parts: [{ text: markdown }] } }] });
    expect(fallback.map((i) => i.extension)).toEqual(['webp', 'gif']);

    const both = await extractImages({
      candidates: [
        {
          content: {
            parts: [{ text: markdown }, { inlineData: { mimeType: 'image/png', data: base64(tinyPng()) } }],
          },
        },
      ],
    });
    expect(both.map((i) => i.extension)).toEqual(['png']);
  });

  it('ignores data URLs inside thoughts', async () => {
    const text = `data:image/png;base64,${base64(tinyPng())}`;
    expect(await extractImages({ candidates: [{ content: { parts: [{ text, thought: true }] } }] })).toEqual([]);
  });

  it('keeps the declared type but reports bytes that disagree, and logs it', async () => {
    const { logger, lines } = captureLogger();
    const response: GenerateContentResponse = {
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: base64(jpegHeader()) } }] } }],
    };
    const [image] = await extractImages(response, { logger });
    expect(image?.extension).toBe('png');
    expect(image?.detectedMimeType).toBe('image/jpeg');
    expect(lines.join('')).toContain('image/jpeg');
  });

  it('turns invalid Base64 into a bad_response service error', async () => {
    const response: GenerateContentResponse = {
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: '!!not*base64' } }] } }],
    };
    const error = await extractImages(response).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadResponseError);
  });

  it.each([
    ['a padding sign in the middle', (b64: string) => `${b64.slice(0, 8)}=${b64.slice(9)}`],
    ['URL-safe characters', (b64: string) => `${b64.slice(0, 8)}-_${b64.slice(10)}`],
    ['a character outside the alphabet', (b64: string) => `${b64.slice(0, 8)}*${b64.slice(9)}`],
    ['a padding sign before the last character', (b64: string) => `${b64.slice(0, -2)}=A`],
  ])('refuses Base64 with %s', async (_case, corrupt) => {
    const data = corrupt(base64(tinyPng()));
    const response: GenerateContentResponse = {
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data } }] } }],
    };
    const error = await extractImages(response).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadResponseError);
  });

  it('decodes Base64 wrapped over several lines', async () => {
    const wrapped = base64(tinyPng()).replace(/(.{16})/g, '$1\n');
    const response: GenerateContentResponse = {
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: wrapped } }] } }],
    };
    const [image] = await extractImages(response);
    expect(Buffer.from(image?.bytes ?? []).equals(Buffer.from(tinyPng()))).toBe(true);
  });

  describe("Base64 kept as the answer's bytes (RawText)", () => {
    /** A PNG signature and then `size` bytes that differ along the way, as Base64 bytes. */
    function bigImage(size: number): { bytes: Buffer; raw: RawText } {
      const bytes = Buffer.concat([
        Buffer.from(tinyPng()),
        Buffer.from(Array.from({ length: size }, (_, i) => (i * 7) % 251)),
      ]);
      return { bytes, raw: new RawText(Buffer.from(bytes.toString('base64'), 'latin1')) };
    }

    const answer = (data: RawText): GenerateContentResponse => ({
      candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data } }] } }],
    });

    it.each([
      ['one slice', 1000],
      ['many slices over several turns', 5 * 1024 * 1024 + 2],
      ['an end that needs padding', 64 * 1024 + 1],
    ])('decodes %s exactly', async (_case, size) => {
      const { bytes, raw } = bigImage(size);
      const [image] = await extractImages(answer(raw));
      expect(Buffer.from(image?.bytes ?? []).equals(bytes)).toBe(true);
      expect(image?.mimeType).toBe('image/png');
    });

    it('decodes in place: the image is the start of its own Base64, nothing of its size allocated', async () => {
      const { bytes, raw } = bigImage(300 * 1024);
      const [image] = await extractImages(answer(raw));
      expect(image?.bytes.buffer).toBe(raw.bytes.buffer);
      expect(image?.bytes.byteOffset).toBe(raw.bytes.byteOffset);
      expect(Buffer.from(image?.bytes ?? []).equals(bytes)).toBe(true);
    });

    it.each([
      ['a character outside the alphabet', 3 * 1024 * 1024, '*'],
      ['a padding sign', 200 * 1024, '='],
      ['a URL-safe character', 200 * 1024, '_'],
    ])('refuses %s in a later slice', async (_case, at, character) => {
      const { raw } = bigImage(4 * 1024 * 1024);
      raw.bytes.write(character, at, 'latin1');
      const error = await extractImages(answer(raw)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadResponseError);
    });

    it('refuses a padding sign that is not at the very end', async () => {
      const { raw } = bigImage(1000);
      raw.bytes.write('=A', raw.bytes.byteLength - 2, 'latin1');
      const error = await extractImages(answer(raw)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadResponseError);
    });

    it('decodes Base64 wrapped over several lines', async () => {
      const wrapped = base64(tinyPng()).replace(/(.{16})/g, '$1\n');
      const [image] = await extractImages(answer(new RawText(Buffer.from(wrapped, 'latin1'))));
      expect(Buffer.from(image?.bytes ?? []).equals(Buffer.from(tinyPng()))).toBe(true);
    });
  });

  it('returns nothing for a response without candidates', async () => {
    expect(await extractImages({ promptFeedback: { blockReason: 'SAFETY' } })).toEqual([]);
  });
});

describe('readInputImage', () => {
  it.each([
    ['png', tinyPng(), 'image/png'],
    ['jpeg', jpegHeader(), 'image/jpeg'],
    ['webp', webpHeader(), 'image/webp'],
    ['gif', gifHeader(), 'image/gif'],
    ['heic', heicHeader(), 'image/heic'],
  ])('takes the type of a %s from its bytes', async (_name, bytes, mimeType) => {
    expect((await readInputImage(bytes)).mimeType).toBe(mimeType);
  });

  it('refuses empty, unknown, unsupported and oversize input', async () => {
    await expect(readInputImage(new Uint8Array())).rejects.toThrow(UsageError);
    await expect(readInputImage(new TextEncoder().encode('just text'))).rejects.toThrow(/Unsupported image type/);
    const pdf = new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n');
    await expect(readInputImage(pdf)).rejects.toThrow(/application\/pdf/);
    const huge = new Uint8Array(MAX_INLINE_IMAGE_BYTES + 1);
    huge.set(tinyPng());
    await expect(readInputImage(huge)).rejects.toThrow(/too large/);
  });

  it('keeps the inline limit under 20 MB once Base64-encoded', () => {
    expect(Math.ceil(MAX_INLINE_IMAGE_BYTES / 3) * 4).toBeLessThan(20_000_000);
  });
});
