import { copy } from '@genbot/core/copy';
import { JobScheduler } from '@genbot/core/scheduling';
import type { SlackFake } from '@genbot/fakes';
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

/** Slack's per-channel limits, as the fake enforces them: about one post and one edit a second. */
function slackLimits(slack: SlackFake): () => void {
  const offs = [
    slack.rateLimit({ method: 'chat.postMessage', perSecond: 1, scope: 'channel' }),
    slack.rateLimit({ method: 'chat.update', perSecond: 1, scope: 'channel' }),
  ];
  return () => {
    for (const off of offs) off();
  };
}

/** The bot's calls that post or edit in `channel`, refused ones included. */
function channelCalls(slack: SlackFake, channel: string): number {
  return slack.calls.filter(
    (call) => (call.method === 'chat.postMessage' || call.method === 'chat.update') && call.args.channel === channel,
  ).length;
}

/** A private note of where a request stands, sent while its public message waits its turn: not an answer. */
const standing = (text: string): boolean => /in line\.$/.test(text) || text === copy.replyOnItsWay;

/**
 * Each mention's answer once every one has a final one: the bot's messages in
 * its thread, or the private refusal (an ephemeral in its thread) its job got at intake.
 */
function answered(slack: SlackFake, channel: string, mentions: string[], final: (text: string) => boolean) {
  return slack.waitFor(
    () => {
      const answers = mentions.map((ts) => {
        const replies = slack.workspace.botMessages(slack.identity.botUserId, { channel, threadTs: ts });
        const refusals = slack.workspace.ephemerals.filter(
          (e) => e.channel === channel && e.threadTs === ts && !standing(e.text),
        );
        return { replies, refusals };
      });
      const done = answers.every(
        ({ replies, refusals }) =>
          (replies.length > 0 && replies.every((m) => final(m.text))) !== (refusals.length === 1),
      );
      return done ? answers : undefined;
    },
    { timeoutMs: 120_000 },
  );
}

const waiting = (text: string): boolean => text === copy.thinking || /in line\.$/.test(text);

describe('Slack: a flood of mentions in one channel, under Slack’s per-channel limits', () => {
  const h = useHarness({ mode: 'http', scheduler: new JobScheduler({ stream: { concurrency: 2 } }) });

  it('one user, many mentions: every mention answered, at most about two calls an answer', async () => {
    const { slack } = h();
    const off = slackLimits(slack);
    const channel = 'CSTORM1';
    try {
      const mentions = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          slack.userSays({ user: 'U1', channel, text: `<@UBOT> question ${i} [len:300] [delay:50]` }),
        ),
      );
      const answers = await answered(
        slack,
        channel,
        mentions.map((m) => m.ts),
        (text) => !waiting(text),
      );
      // Refused at intake, before anything is posted: privately, in the mention's thread.
      const busy = answers.flatMap((answer) => answer.refusals);
      expect(busy.length).toBeGreaterThanOrEqual(16);
      for (const refusal of busy) {
        expect(refusal.user).toBe('U1');
        expect(refusal.text).toMatch(/^⏳ You already have requests on the way\./);
      }
      const calls = channelCalls(slack, channel);
      const refused = slack.rateLimitHits.filter((hit) => hit.channel === channel).length;
      console.info(`storm, one user: 20 answers, ${calls} calls, ${refused} refused with 429`);
      expect(calls).toBeLessThanOrEqual(2 * 20);
      expect(refused).toBe(0);
    } finally {
      off();
    }
  });

  it('many users: every one gets an answer or a place in line, then the answer', async () => {
    const { slack } = h();
    const off = slackLimits(slack);
    const channel = 'CSTORM2';
    try {
      const mentions = await Promise.all(
        // Five seconds of stream each, two at a time: the others wait in line long enough to be told so.
        Array.from({ length: 6 }, (_, i) =>
          slack.userSays({ user: `UF${i}`, channel, text: `<@UBOT> hello from ${i} [len:500] [delay:500]` }),
        ),
      );
      // While the first replies stream, the others show where they stand.
      await slack.waitFor(
        () =>
          mentions.every(
            (m) => slack.workspace.botMessages(slack.identity.botUserId, { channel, threadTs: m.ts }).length > 0,
          ) || undefined,
        { timeoutMs: 60_000 },
      );
      const everShownInLine = slack.workspace
        .botMessages(slack.identity.botUserId, { channel })
        .some((m) => [...m.edits.map((v) => v.text), m.text].some((text) => /in line\.$/.test(text)));
      expect(everShownInLine).toBe(true);
      const answers = await answered(
        slack,
        channel,
        mentions.map((m) => m.ts),
        (text) => !waiting(text),
      );
      for (const { replies, refusals } of answers) {
        expect(replies).toHaveLength(1);
        expect(refusals).toEqual([]);
      }
      // One post an answer, and the edits of all the streams together within one a second.
      const times = slack.calls
        .filter((call) => call.args.channel === channel && call.method.startsWith('chat.'))
        .map((call) => call.atMs);
      const seconds = Math.ceil((Math.max(...times) - Math.min(...times)) / 1000);
      const calls = channelCalls(slack, channel);
      const refused = slack.rateLimitHits.filter((hit) => hit.channel === channel).length;
      console.info(`storm, 6 users: 6 answers in ${seconds} s, ${calls} calls, ${refused} refused with 429`);
      expect(calls).toBeLessThanOrEqual(6 + seconds + 1);
      expect(refused).toBe(0);
    } finally {
      off();
    }
  });
});
