import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CachedMessage } from '@genbot/core/chat';
import { createLogger } from '@genbot/core/log';
import type { ThreadCacheStore } from '@genbot/core/store';
import { StoredThreadCache } from '@genbot/core/jobs';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The SQLite store's thread cache, counting the writes that reach it. */
async function countedCache(): Promise<{ cache: StoredThreadCache; puts: () => number }> {
  const directory = await mkdtemp(join(tmpdir(), 'genbot-thread-cache-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  const store = await openStore(`sqlite:${join(directory, 'genbot.db')}`);
  cleanups.push(() => store.close());
  let puts = 0;
  const threads: ThreadCacheStore = {
    ...store.threads,
    put: (message, options) => {
      puts += 1;
      return store.threads.put(message, options);
    },
  };
  const cache = new StoredThreadCache({
    store: threads,
    platform: 'slack',
    postedAt: (id) => new Date(Number(id) * 1000),
    logger: createLogger({ level: 'silent' }),
  });
  return { cache, puts: () => puts };
}

const mention: CachedMessage = {
  id: '1700000000.000100',
  authorId: 'U1',
  isBot: false,
  isSelf: false,
  text: '<@UBOT> hello',
  attachments: [],
};
const thread = { channelId: 'C1', threadId: mention.id };

describe('StoredThreadCache', () => {
  it('writes a message seen twice once (its message event and its mention), and an edit or a deletion again', async () => {
    const { cache, puts } = await countedCache();
    await Promise.all([cache.observe(thread, mention), cache.observe(thread, mention)]);
    await cache.observe(thread, { ...mention });
    expect(puts()).toBe(1);
    expect((await cache.read(thread))?.messages.map((message) => message.text)).toEqual(['<@UBOT> hello']);

    await cache.observe(thread, { ...mention, text: '<@UBOT> hello again' });
    expect(puts()).toBe(2);
    await cache.forget(thread, mention.id);
    expect(await cache.read(thread)).toBeUndefined();
    await cache.observe(thread, { ...mention, text: '<@UBOT> hello again' });
    expect(puts()).toBe(3);
    expect((await cache.read(thread))?.messages.map((message) => message.text)).toEqual(['<@UBOT> hello again']);
  });
});
