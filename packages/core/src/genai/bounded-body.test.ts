import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCapped } from './bounded-body.js';

const chunksOf = (...texts: string[]) => Readable.from(texts.map((text) => Buffer.from(text)));
const tooLarge = () => new Error('too large');

describe('readCapped', () => {
  it('copies each chunk into one buffer of the declared length, which owns its memory', async () => {
    const body = await readCapped(chunksOf('ab', 'cd', 'e'), 5, 100, tooLarge);
    expect(body.toString()).toBe('abcde');
    expect(body.byteOffset).toBe(0);
    expect(body.buffer.byteLength).toBe(5);
  });

  it.each([
    ['without a declared length', undefined, 'abcde'],
    ['past the declared length', 3, 'abcde'],
    ['short of the declared length', 9, 'abcde'],
  ])('keeps every byte %s', async (_case, declared, whole) => {
    expect((await readCapped(chunksOf('ab', 'cd', 'e'), declared, 100, tooLarge)).toString()).toBe(whole);
  });

  it('refuses a declared length over the cap before reading, and a body that grows past it', async () => {
    await expect(readCapped(chunksOf('abc'), 101, 100, tooLarge)).rejects.toThrow('too large');
    await expect(readCapped(chunksOf('ab', 'cd'), undefined, 3, tooLarge)).rejects.toThrow('too large');
  });
});
