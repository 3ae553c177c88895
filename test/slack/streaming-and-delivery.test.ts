import { describe, expect, it } from 'vitest';
import {
  botReplies,
  CHANNEL,
  expectedReply,
  replyWithText,
  requestsUntilMarker,
  useHarness,
  type Mode,
} from './support/harness.js';
import { fencesBalanced, reassemble } from './support/text.js';

const MODES: Mode[] = ['http', 'socket'];
const LIMIT = 4_000;

describe.each(MODES)('Slack over %s: long replies, rate limits and redeliveries', (mode) => {
  const h = useHarness({ mode });

  it('splits a reply longer than 4,000 characters into clean messages in the thread', async () => {
    const { slack } = h();
    const since = h().emulator.requests.length;
    const mention = await slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      text: '<@UBOT> write a long essay [len:9000]',
    });
    const expected = await expectedReply(h(), since);
    expect(expected.length).toBeGreaterThan(2 * LIMIT);
    expect(expected).toContain('```ts');
    const replies = await slack.waitFor(
      () => {
        const texts = botReplies(slack, mention.ts).map((m) => m.text);
        return reassemble(texts) === expected ? texts : undefined;
      },
      { timeoutMs: 30_000, quietMs: 1_500 },
    );
    expect(replies.length).toBeGreaterThanOrEqual(3);
    for (const text of replies) {
      expect(text.length).toBeLessThanOrEqual(LIMIT);
      expect(fencesBalanced(text)).toBe(true);
      expect(text.trim()).not.toBe('');
    }
    expect(reassemble(replies)).toBe(expected);
  });

  it('delivers the exact final text when chat.update answers 429', async () => {
    const { slack } = h();
    const off = slack.rateLimit({ method: 'chat.update', failNext: 2, retryAfterSeconds: 1 });
    try {
      const hitsBefore = slack.rateLimitHits.length;
      const since = h().emulator.requests.length;
      const mention = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        text: '<@UBOT> describe a harbor [len:800] [delay:100]',
      });
      const expected = await expectedReply(h(), since);
      const [reply, ...more] = await replyWithText(slack, mention.ts, expected);
      expect(more).toEqual([]);
      expect(reply?.text).toBe(expected);
      expect(slack.rateLimitHits.slice(hitsBefore).filter((hit) => hit.method === 'chat.update')).toHaveLength(2);
    } finally {
      off();
    }
  });

  it('answers an event Slack delivers again (same event_id) only once', async () => {
    const { slack } = h();
    const since = h().emulator.requests.length;
    const mention = await slack.userSays({ user: 'U1', channel: CHANNEL, text: '<@UBOT> say hello [delay:100]' });
    const expected = await expectedReply(h(), since);
    const eventId = mention.deliveries.find((d) => d.eventType === 'app_mention')?.eventId;
    expect(eventId).toBeDefined();
    // Once while the reply is still streaming, once after it is done.
    const early = await slack.redeliver(eventId ?? '', { retryNum: 1, retryReason: 'http_timeout' });
    expect(early.acked).toBe(true);
    await replyWithText(slack, mention.ts, expected);
    const late = await slack.redeliver(eventId ?? '', { retryNum: 2, retryReason: 'http_timeout' });
    expect(late.acked).toBe(true);
    const requests = await requestsUntilMarker(h(), since);
    expect(botReplies(slack, mention.ts)).toHaveLength(1);
    // The bot's one conversation request and the replay behind `expected`; none for the retries.
    expect(requests.filter((r) => r.path.endsWith('/v1/messages'))).toHaveLength(2);
  });
});

describe('Slack over http: request signatures', () => {
  const h = useHarness({ mode: 'http' });

  it.each(['invalid', 'stale'] as const)('refuses a %s signature with 401 and does not answer', async (signature) => {
    const { slack } = h();
    const since = h().emulator.requests.length;
    const mention = await slack.userSays({ user: 'U1', channel: CHANNEL, text: '<@UBOT> are you there?', signature });
    const delivery = mention.deliveries.find((d) => d.eventType === 'app_mention');
    expect(delivery?.attempts[0]).toMatchObject({ acked: false, status: 401 });
    await delivery?.settled;
    const requests = await requestsUntilMarker(h(), since);
    expect(botReplies(slack, mention.ts)).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('refuses a slash command with a bad signature', async () => {
    const { slack } = h();
    const since = h().emulator.requests.length;
    const run = await slack.userRunsCommand({
      user: 'U1',
      channel: CHANNEL,
      command: '/imagine',
      text: 'a red fox',
      signature: 'invalid',
    });
    expect(run.delivery.attempts[0]).toMatchObject({ acked: false, status: 401 });
    expect(await requestsUntilMarker(h(), since)).toEqual([]);
  });
});
