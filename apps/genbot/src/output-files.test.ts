import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDirectory, writeNewFile } from './output-files.js';

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
    expect(await writeNewFile(nested, { stem: 'cat', extension: 'webp', bytes: new Uint8Array([1]) })).toEqual({
      name: 'cat-1.webp',
      number: 1,
    });
  });

  it('never overwrites an existing file: it counts on from the first free number', async () => {
    await writeFile(path.join(dir, 'cat-1.png'), 'old');
    await writeFile(path.join(dir, 'cat-2.png'), 'old');
    const { name, number } = await writeNewFile(dir, { stem: 'cat', extension: 'png', bytes: new Uint8Array([7]) });
    expect([name, number]).toEqual(['cat-3.png', 3]);
    expect(await readFile(path.join(dir, 'cat-1.png'), 'utf8')).toBe('old');
    expect([...(await readFile(path.join(dir, name)))]).toEqual([7]);
    expect((await writeNewFile(dir, { stem: 'cat', extension: 'jpg', bytes: new Uint8Array([8]) }, 4)).name).toBe(
      'cat-4.jpg',
    );
  });

  it('gives concurrent writers distinct names', async () => {
    const names = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const written = await writeNewFile(dir, { stem: 'same', extension: 'jpg', bytes: new Uint8Array([i]) });
        return written.name;
      }),
    );
    expect(new Set(names).size).toBe(5);
    expect((await readdir(dir)).sort()).toEqual([...names].sort());
  });
});
