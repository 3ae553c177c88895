import { describe, expect, it } from 'vitest';
import { InMemoryThreadCache, type CachedMessage } from './thread-cache.js';

const thread = { channelId: 'C1', threadId: '100.000001' };

function message(id: string, text = `text ${id}`): CachedMessage {
  return { id, authorId: 'U1', isBot: false, isSelf: false, text, attachments: [] };
}

describe('InMemoryThreadCache', () => {
  it('knows nothing of a thread it never saw', async () => {
    expect(await new InMemoryThreadCache().read(thread)).toBeUndefined();
  });

  it('holds a thread whose first message it saw live as complete, oldest first', async () => {
    const cache = new InMemoryThreadCache();
    await cache.observe(thread, message('100.000001'));
    await cache.observe(thread, message('100.000010'));
    await cache.observe(thread, message('100.000002'));
    const read = await cache.read(thread);
    expect(read?.complete).toBe(true);
    expect(read?.messages.map((m) => m.id)).toEqual(['100.000001', '100.000002', '100.000010']);
  });

  it('holds a thread joined midway as incomplete until a history read reaches the live messages', async () => {
    const cache = new InMemoryThreadCache();
    await cache.observe(thread, message('100.000005'));
    await cache.observe(thread, message('100.000007'));
    expect(await cache.read(thread)).toMatchObject({ complete: false, liveFrom: '100.000005' });
    await cache.backfill(thread, [message('100.000001'), message('100.000002')], { reachesLive: false });
    expect(await cache.read(thread)).toMatchObject({ complete: false, liveFrom: '100.000005' });
    await cache.backfill(thread, [message('100.000003'), message('100.000005', 'stale')], { reachesLive: true });
    const read = await cache.read(thread);
    expect(read?.complete).toBe(true);
    expect(read?.messages.map((m) => m.id)).toEqual([
      '100.000001',
      '100.000002',
      '100.000003',
      '100.000005',
      '100.000007',
    ]);
    // What was seen live is newer than what the history answered with.
    expect(read?.messages.at(-2)?.text).toBe('text 100.000005');
  });

  it('takes edits and deletions', async () => {
    const cache = new InMemoryThreadCache();
    await cache.observe(thread, message('100.000001'));
    await cache.observe(thread, message('100.000002', 'Thinking…'));
    await cache.observe(thread, message('100.000002', 'The answer'));
    await cache.observe(thread, message('100.000003'));
    await cache.forget(thread, '100.000003');
    expect((await cache.read(thread))?.messages.map((m) => m.text)).toEqual(['text 100.000001', 'The answer']);
  });

  it('stays bounded: the least recently used threads go, and a long thread keeps its first and newest messages', async () => {
    const cache = new InMemoryThreadCache({ maxThreads: 2, maxMessagesPerThread: 3 });
    for (let i = 1; i <= 6; i += 1) await cache.observe(thread, message(`100.00000${i}`));
    expect((await cache.read(thread))?.messages.map((m) => m.id)).toEqual(['100.000001', '100.000005', '100.000006']);
    await cache.observe({ channelId: 'C2', threadId: '1.0' }, message('1.0'));
    await cache.read(thread);
    await cache.observe({ channelId: 'C3', threadId: '2.0' }, message('2.0'));
    expect(await cache.read({ channelId: 'C2', threadId: '1.0' })).toBeUndefined();
    expect(await cache.read(thread)).toBeDefined();
  });
});
