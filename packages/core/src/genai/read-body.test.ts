import { describe, expect, it } from 'vitest';
import { readBody } from './read-body.js';

async function* chunksOf(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe('readBody', () => {
  it('joins the chunks into the declared length', async () => {
    const body = await readBody(chunksOf('{"a":', '"bc', 'd"}'), '11');
    expect(body.toString()).toBe('{"a":"bcd"}');
    expect(body.byteLength).toBe(11);
  });

  it('joins the chunks when no length is declared or the header is unusable', async () => {
    for (const header of [undefined, ['3', '3'], 'abc', '-1', '1.5', String(2 ** 40)]) {
      expect((await readBody(chunksOf('ab', 'cd'), header)).toString()).toBe('abcd');
    }
  });

  it('keeps every byte when the server sends more or less than it declared', async () => {
    expect((await readBody(chunksOf('ab', 'cd', 'ef'), '3')).toString()).toBe('abcdef');
    expect((await readBody(chunksOf('ab'), '10')).toString()).toBe('ab');
  });

  it('reads an empty body', async () => {
    expect((await readBody(chunksOf(), '0')).byteLength).toBe(0);
    expect((await readBody(chunksOf(), undefined)).byteLength).toBe(0);
  });
});
