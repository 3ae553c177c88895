import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDirectory, slugify, writeNewFile } from './output-files.js';

describe('slugify', () => {
  it('keeps lowercase ASCII words joined by dashes', () => {
    expect(slugify('A Café at Night, [format:jpeg]!')).toBe('a-cafe-at-night-format-jpeg');
  });

  it('falls back to "image" when nothing usable is left', () => {
    expect(slugify('日本 ✨')).toBe('image');
  });

  it('bounds the length without a trailing dash', () => {
    const slug = slugify('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(48);
    expect(slug.endsWith('-')).toBe(false);
  });
});

describe('writeNewFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'genbot-out-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates missing parents', async () => {
    const nested = path.join(dir, 'a', 'b');
    await ensureDirectory(nested);
    expect(await writeNewFile(nested, 'cat-1', 'webp', new Uint8Array([1]))).toBe('cat-1.webp');
  });

  it('never overwrites an existing file', async () => {
    await writeFile(path.join(dir, 'cat-1.png'), 'old');
    await writeFile(path.join(dir, 'cat-1-2.png'), 'old');
    const name = await writeNewFile(dir, 'cat-1', 'png', new Uint8Array([7]));
    expect(name).toBe('cat-1-3.png');
    expect(await readFile(path.join(dir, 'cat-1.png'), 'utf8')).toBe('old');
    expect([...(await readFile(path.join(dir, name)))]).toEqual([7]);
  });

  it('gives concurrent writers distinct names', async () => {
    const names = await Promise.all(
      Array.from({ length: 5 }, (_, i) => writeNewFile(dir, 'same', 'jpg', new Uint8Array([i]))),
    );
    expect(new Set(names).size).toBe(5);
    expect((await readdir(dir)).sort()).toEqual([...names].sort());
  });
});
