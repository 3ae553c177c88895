import { copy } from '@genbot/core/copy';
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const inLine = (text: string): boolean => /in line\.$/.test(text);

describe('Slack: mentions waiting for a worker are told their place in line, privately', () => {
  // One job at a time: the others wait in the job queue, before any worker has them.
  const h = useHarness({ mode: 'http', workers: { image: 1, stream: 1 } });

  it('a channel flooded past what runs at once: every waiting user learns their place at once, then gets the answer', async () => {
    const { slack } = h();
    const offs = [
      slack.rateLimit({ method: 'chat.postMessage', perSecond: 1, scope: 'channel' }),
      slack.rateLimit({ method: 'chat.update', perSecond: 1, scope: 'channel' }),
    ];
    const channel = 'CLINE';
    try {
      const mentions: Awaited<ReturnType<typeof slack.userSays>>[] = [];
      // In order, so that each one's place is known.
      for (let i = 0; i < 5; i += 1) {
        mentions.push(await slack.userSays({ user: `UL${i}`, channel, text: `<@UBOT> hi ${i} [len:200] [delay:100]` }));
      }
      const notes = await slack.waitFor(
        () => {
          const told = slack.workspace.ephemerals.filter((e) => e.channel === channel && inLine(e.text));
          return told.length >= 4 ? told : undefined;
        },
        { timeoutMs: 10_000 },
      );
      // The first runs at once; the others are told where they stand by chat.postEphemeral, in their thread.
      expect(notes.map((note) => [note.user, note.threadTs, note.text, note.source])).toEqual(
        mentions.slice(1).map((m, i) => [`UL${i + 1}`, m.ts, copy.chatQueued(i + 1), 'chat.postEphemeral'] as const),
      );
      await slack.waitFor(
        () =>
          mentions.every((m) => {
            const replies = slack.workspace.botMessages(slack.identity.botUserId, { channel, threadTs: m.ts });
            return replies.length === 1 && replies[0]!.text.startsWith('You said');
          }) || undefined,
        { timeoutMs: 60_000 },
      );
      expect(slack.rateLimitHits.filter((hit) => hit.channel === channel)).toEqual([]);
    } finally {
      for (const off of offs) off();
    }
  });
});
