import { fileURLToPath } from 'node:url';
import type { PlaygroundSnapshot } from '@genbot/playground';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnGenbot, type GenbotProcess } from '@genbot/test-servers/genbot';
import { followFeed, repliesComplete, startSlowReplies } from './genbot-process.js';

const CRASH_ON_SIGNAL = fileURLToPath(new URL('./crash-on-signal.mjs', import.meta.url));

const running: GenbotProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((genbot) => genbot.stop(5_000)));
});

describe('an error nothing caught in a running bot', () => {
  it.each([
    ['exception', 'uncaught exception: an exception nobody caught', 'uncaughtException'],
    ['rejection', 'unhandled rejection: a rejection nobody handled', 'unhandledRejection'],
  ] as const)(
    'an unhandled %s is logged as fatal, the replies in flight finish, and the process exits 1 for its supervisor',
    async (kind, said, origin) => {
      const genbot = spawnGenbot(
        ['start'],
        { PLAYGROUND_PORT: '0', CRASH: kind },
        { nodeArgs: ['--import', CRASH_ON_SIGNAL] },
      );
      running.push(genbot);
      const url = (await genbot.waitForLine(/^Playground: (http:\/\/\S+)$/, 30_000))[1] ?? '';
      const feed = followFeed<PlaygroundSnapshot>(url);
      const replies = await startSlowReplies(url, feed);

      genbot.child.kill('SIGUSR2');
      expect(await genbot.exited).toEqual({ code: 1, signal: null });
      await feed.ended.catch(() => undefined);
      expect(repliesComplete(replies, feed.latest())).toBe(true);
      expect(genbot.stderr()).toContain(`genbot: ${said}\n`);
      expect(genbot.stderr()).toContain('genbot: stopping after a fatal error, finishing replies in progress');
      const fatal = genbot
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; origin?: string; err?: { message?: string } })
        .filter((entry) => entry.level === 60);
      expect(fatal).toEqual([
        expect.objectContaining({ origin, err: expect.objectContaining({ message: said.split(': ')[1] }) }),
      ]);
    },
  );
});
