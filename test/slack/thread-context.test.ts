import type { MessagesRequest } from '@genbot/core/genai';
import type { SlackFake } from '@genbot/fakes';
import { describe, expect, it } from 'vitest';
import { CHANNEL, expectedReply, requestSeen, useHarness, type Harness } from './support/harness.js';

/**
 * Thread context under Slack's conversations.replies limits: the bot answers
 * from what its message events taught it, and asks the API only for the part
 * of a thread it never saw: with the limits Marketplace and internal apps keep,
 * and with the 2025 limits for apps outside the Marketplace (1 call a minute,
 * 15 messages a page).
 */
const TRIMMED = 'thread context trimmed';

function repliesCalls(slack: SlackFake, since: number) {
  return slack.calls.slice(since).filter((call) => call.method === 'conversations.replies');
}

/** A thread of `count` messages (the parent included), each delivered to the bot as Slack would. */
async function threadSeenLive(slack: SlackFake, count: number): Promise<string> {
  const parent = await slack.userSays({ user: 'U2', channel: CHANNEL, text: 'seen 1: where do we meet?' });
  for (let i = 2; i <= count; i += 1) {
    await slack.userSays({ user: i % 2 === 0 ? 'U1' : 'U2', channel: CHANNEL, threadTs: parent.ts, text: `seen ${i}` });
  }
  return parent.ts;
}

/** A thread of `count` messages posted while the bot was away: no event reached it. */
function threadNotSeen(slack: SlackFake, count: number): string {
  const parent = slack.workspace.post({ channel: CHANNEL, user: 'U2', text: 'unseen 1: where do we meet?' });
  for (let i = 2; i <= count; i += 1) {
    slack.workspace.post({
      channel: CHANNEL,
      user: i % 2 === 0 ? 'U1' : 'U2',
      threadTs: parent.ts,
      text: `unseen ${i}`,
    });
  }
  return parent.ts;
}

/** Mentions the bot in the thread; answers the conversation the model got, once the reply is complete. */
async function mention(h: Harness, threadTs: string, text: string): Promise<string> {
  const since = h.emulator.requests.length;
  await h.slack.userSays({ user: 'U1', channel: CHANNEL, threadTs, text: `<@UBOT> ${text}` });
  const request = (await requestSeen(h, /\/v1\/messages$/, since)) as MessagesRequest;
  const expected = await expectedReply(h, since);
  await h.slack.waitFor(() =>
    h.slack.workspace.botMessages('UBOT', { channel: CHANNEL, threadTs }).find((m) => m.text === expected),
  );
  return JSON.stringify(request.messages);
}

function numbered(prefix: string, context: string): number[] {
  return [...context.matchAll(new RegExp(`${prefix} (\\d+)`, 'g'))].map((match) => Number(match[1]));
}

describe('Slack thread context, as an app outside the Marketplace (2025 limits)', () => {
  const h = useHarness({ mode: 'http', fake: { nonMarketplaceApp: true } });

  it('answers a 30-message thread it saw arrive with the whole thread, without reading the API', async () => {
    const { slack } = h();
    const threadTs = await threadSeenLive(slack, 30);
    const since = slack.calls.length;
    const context = await mention(h(), threadTs, 'sum up the thread');
    expect(numbered('seen', context)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(repliesCalls(slack, since)).toEqual([]);
    expect(h().logs()).not.toContain(TRIMMED);
  });

  it('answers a thread it did not see from one page of at most 15, and says once that context was trimmed', async () => {
    const { slack } = h();
    const threadTs = threadNotSeen(slack, 30);
    const since = slack.calls.length;
    const logsBefore = h().logs().length;
    const context = await mention(h(), threadTs, 'what did I miss?');
    const answered = repliesCalls(slack, since).filter((call) => call.status === 200);
    expect(answered).toHaveLength(1);
    expect(Number(answered[0]?.args.limit)).toBeLessThanOrEqual(15);
    // The page the API gave, then the mention itself: nothing was waited for.
    expect(numbered('unseen', context)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(context).toContain('what did I miss?');
    const notes = h()
      .logs()
      .slice(logsBefore)
      .split('\n')
      .filter((line) => line.includes(TRIMMED));
    expect(notes).toHaveLength(1);

    // Within the minute the API is not asked again: the next mention is answered from what is known.
    const again = slack.calls.length;
    await mention(h(), threadTs, 'and now?');
    expect(repliesCalls(slack, again)).toEqual([]);
  });
});

describe('Slack thread context, as a Marketplace or internal app', () => {
  const h = useHarness({ mode: 'http' });

  it('answers a thread it saw from its events alone', async () => {
    const { slack } = h();
    const threadTs = await threadSeenLive(slack, 30);
    const since = slack.calls.length;
    const context = await mention(h(), threadTs, 'sum up the thread');
    expect(numbered('seen', context)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(repliesCalls(slack, since)).toEqual([]);
  });

  it('reads a thread it did not see in small pages, all of it, and keeps what it read', async () => {
    const { slack } = h();
    const threadTs = threadNotSeen(slack, 30);
    const since = slack.calls.length;
    const context = await mention(h(), threadTs, 'what did I miss?');
    const calls = repliesCalls(slack, since);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((call) => call.status === 200 && Number(call.args.limit) <= 15)).toBe(true);
    expect(numbered('unseen', context)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));

    const again = slack.calls.length;
    const next = await mention(h(), threadTs, 'and the bot said?');
    expect(repliesCalls(slack, again)).toEqual([]);
    // The bot's own answer, known from its own message events, is part of the conversation now.
    expect(next).toContain('"role":"assistant"');
  });
});

describe('a reply never waits for the thread', () => {
  const h = useHarness({ mode: 'http', fake: { nonMarketplaceApp: true } });

  it('answers at once while conversations.replies is rate limited', async () => {
    const { slack } = h();
    // Spend the minute's one call.
    await mention(h(), threadNotSeen(slack, 3), 'first');
    const threadTs = threadNotSeen(slack, 20);
    const started = Date.now();
    const since = slack.calls.length;
    const context = await mention(h(), threadTs, 'are you there?');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(repliesCalls(slack, since).filter((call) => call.status === 200)).toEqual([]);
    expect(context).toContain('are you there?');
  });
});
