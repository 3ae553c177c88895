import { JobScheduler } from '@genbot/core/scheduling';
import { describe, expect, it } from 'vitest';
import { assertNoSecrets, botReplies, CHANNEL, generateContentRequests, startHarness } from './support/harness.js';

const restarted = (asked: string): string => `🔄 I'm restarting. “${asked}” will continue after the restart.`;

describe('Slack: stopping while work runs and waits, with a drain shorter than the work', () => {
  it('turns the waiting /imagine away unsent and aborts what runs; each keeps what was asked and says what next', async () => {
    const h = await startHarness({ mode: 'http', scheduler: new JobScheduler({ image: { concurrency: 1 } }) });
    try {
      const { slack } = h;
      const channel = 'C2';
      const since = h.emulator.requests.length;
      const running = 'a slow lighthouse [fault:slow=30000]';
      const waiting = 'a harbour at night';
      await slack.userRunsCommand({ user: 'U1', channel, command: '/imagine', text: running });
      await slack.waitFor((ws) => ws.botMessages('UBOT', { channel }).some((m) => /Generating/.test(m.text)), {
        timeoutMs: 10_000,
      });
      await slack.userRunsCommand({ user: 'U2', channel, command: '/imagine', text: waiting });
      await slack.waitFor((ws) => ws.botMessages('UBOT', { channel }).some((m) => /next in line/.test(m.text)), {
        timeoutMs: 10_000,
      });
      const mention = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        text: '<@UBOT> tell me a long story [len:4000] [delay:400]',
      });
      await slack.waitFor(() => botReplies(slack, mention.ts).find((m) => m.text.length > 20), { timeoutMs: 15_000 });

      const stoppedAt = Date.now();
      await h.bot.stop({ drainMs: 1_000 });
      // The drain, then the aborted jobs' last words: never the 30 s image or the 40 s stream.
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);

      const progress = slack.workspace.botMessages('UBOT', { channel }).map((m) => m.text);
      expect(progress).toEqual([restarted(running), restarted(waiting)]);
      // The waiting one never reached the model.
      expect(generateContentRequests(h, since)).toBe(1);
      const [reply, ...more] = botReplies(slack, mention.ts);
      expect(more).toEqual([]);
      expect(reply?.text).toMatch(
        /^You said.+\n\n🔄 I'm restarting\. “tell me a long story \[len:4000\] \[delay:400\]” will continue after the restart\.$/s,
      );
      expect(slack.workspace.files.size).toBe(0);
      assertNoSecrets(h);
    } finally {
      await h.close();
    }
  });
});
