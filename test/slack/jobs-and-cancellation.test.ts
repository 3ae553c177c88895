import { JobScheduler } from '@genbot/core/scheduling';
import type { SlackMessage } from '@genbot/fakes';
import { describe, expect, it } from 'vitest';
import {
  botReplies,
  CHANNEL,
  expectedReply,
  generateContentRequests,
  repliesWhen,
  replyWithText,
  useHarness,
  type Streaming,
} from './support/harness.js';
import { versions } from './support/text.js';

const STREAMINGS: Streaming[] = ['edit', 'native'];

describe.each(STREAMINGS)('Slack (streaming by %s): deleting the mention cancels its reply', (streaming) => {
  const h = useHarness({ mode: 'http', streaming });

  it('stops the model call mid-stream; the reply keeps its text and ends with Cancelled', async () => {
    const { slack } = h();
    const since = h().emulator.requests.length;
    // About 40 s of stream: only a cancelled call ends within the wait below.
    const mention = await slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      text: '<@UBOT> tell me a long story [len:4000] [delay:400]',
    });
    const expected = await expectedReply(h(), since);
    await slack.waitFor(() => botReplies(slack, mention.ts).find((m) => m.text.length > 20), { timeoutMs: 15_000 });

    const delivery = await slack.userDeletes({ channel: CHANNEL, ts: mention.ts });
    expect(delivery?.attempts[0]).toMatchObject({ acked: true });

    const [reply, ...more] = await repliesWhen(
      slack,
      mention.ts,
      (replies) => /Cancelled\._?$/.test(replies[0]?.text ?? ''),
      10_000,
    );
    expect(more).toEqual([]);
    // Cut short: the stream had most of its 40 s to go.
    expect(reply?.text.length).toBeLessThan(expected.length);
    expect(reply?.text.replace(/\s*_?Cancelled\._?$/, '').length).toBeGreaterThan(20);
    expect(h().logs()).toContain('trigger message deleted; its work is cancelled');
  });

  it('leaves replies alone when an unrelated message is deleted', async () => {
    const { slack } = h();
    const other = await slack.userSays({ user: 'U2', channel: CHANNEL, text: 'just chatting' });
    const since = h().emulator.requests.length;
    const mention = await slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      text: '<@UBOT> a short poem [len:200] [delay:100]',
    });
    const expected = await expectedReply(h(), since);
    await slack.userDeletes({ channel: CHANNEL, ts: other.ts });
    const [reply] = await replyWithText(slack, mention.ts, expected);
    expect(reply?.edits.map((version) => version.text).join('')).not.toMatch(/Cancelled/);
  });
});

describe('Slack: /imagine under the scheduler (images one at a time, two per user)', () => {
  const h = useHarness({ mode: 'http', scheduler: new JobScheduler({ image: { concurrency: 1, perUser: 2 } }) });

  /** The progress messages of a channel's finished /imagines (each gave way to its result) once there are `count`. */
  function finishedProgress(channel: string, count: number): Promise<SlackMessage[]> {
    return h().slack.waitFor(
      (ws) => {
        const gone = ws.deleted.filter((m) => m.channel === channel && m.threadTs === undefined);
        const results = ws.botMessages('UBOT', { channel }).filter((m) => m.fileIds.length > 0);
        return gone.length === count && results.length === count ? gone : undefined;
      },
      { timeoutMs: 30_000, quietMs: 500 },
    );
  }

  it('refuses a third /imagine of one user at once, privately, and sends it nowhere', async () => {
    const channel = 'C2';
    const since = h().emulator.requests.length;
    const prompts = ['a red door [fault:slow=1000]', 'a blue door [fault:slow=1000]', 'a green door [fault:slow=1000]'];
    await Promise.all(
      prompts.map((text) => h().slack.userRunsCommand({ user: 'U1', channel, command: '/imagine', text })),
    );
    const messages = await finishedProgress(channel, 2);
    expect(messages).toHaveLength(2);
    const refused = h().slack.workspace.ephemerals.filter((e) => e.channel === channel);
    expect(refused.map((e) => e.user)).toEqual(['U1']);
    expect(refused[0]?.text).toMatch(/^⏳ You already have requests on the way\. Try again in about \d+ seconds?\.$/);
    expect(generateContentRequests(h(), since)).toBe(2);
  });

  it("shows a second user's /imagine its place in line, then completes it", async () => {
    const channel = 'C3';
    await h().slack.userRunsCommand({
      user: 'U1',
      channel,
      command: '/imagine',
      text: 'a slow lighthouse [fault:slow=2000]',
    });
    await h().slack.waitFor((ws) => ws.botMessages('UBOT', { channel }).length === 1, { timeoutMs: 10_000 });
    await h().slack.userRunsCommand({ user: 'U2', channel, command: '/imagine', text: 'a quick boat' });
    const messages = await finishedProgress(channel, 2);
    const second = messages.find((m) => m.text.includes('a quick boat'));
    if (second === undefined) throw new Error('no progress message for the second /imagine');
    const shown = versions(second);
    expect(shown[0]).toMatch(/a quick boat.* is next in line\./);
    expect(shown.at(-1)).toMatch(/Generating .*a quick boat/);
  });
});
