import { monitorEventLoopDelay } from 'node:perf_hooks';
import { copy } from '@genbot/core/copy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulator-process.js';
import { assertNoSecrets, botReplies, CHANNEL, SECRETS, startHarness, type Harness } from './support/harness.js';

/**
 * A reply without end: a service that ignores max_tokens and sends 10 MB.
 * The emulator runs in a process of its own, so the event loop measured here
 * is the bot's (and the Slack fake's, which does little).
 */
describe('Slack: a reply without end', () => {
  let emulator: EmulatorProcess;
  let h: Harness;
  beforeAll(async () => {
    emulator = await startEmulatorProcess(SECRETS.apiKey);
    h = await startHarness({ mode: 'http', serviceUrl: emulator.url });
  });
  afterAll(async () => {
    assertNoSecrets(h);
    await h.close();
    await emulator.close();
  });

  it('is cut with a short note, while the event loop stays free and other events are acknowledged at once', async () => {
    const { slack } = h;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const mention = await slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      text: '<@UBOT> never stop [len:10000000] [fault:ignore-max-tokens]',
    });
    let finished = false;
    const done = slack
      .waitFor(
        () => {
          const replies = botReplies(slack, mention.ts);
          return (replies.at(-1)?.text ?? '').endsWith(copy.replyTooLong) ? replies : undefined;
        },
        { timeoutMs: 60_000 },
      )
      .finally(() => {
        finished = true;
      });
    // Unrelated chatter in another channel, one event after the other, while the reply runs:
    // Slack wants each acknowledged within 3 s.
    const acks: number[] = [];
    while (!finished) {
      const sent = performance.now();
      const said = await slack.userSays({ user: 'U2', channel: 'C2', text: 'unrelated chatter' });
      acks.push(performance.now() - sent);
      expect(said.deliveries.every((delivery) => delivery.acked)).toBe(true);
    }
    const replies = await done;
    loop.disable();
    const stallMs = loop.max / 1e6;
    console.info(
      `reply without end: ${replies.length} messages, ${replies.reduce((n, m) => n + m.text.length, 0)} characters, ` +
        `longest event-loop stall ${stallMs.toFixed(0)} ms, slowest acknowledgement ${Math.max(...acks).toFixed(0)} ms`,
    );
    // The default max_tokens (CHAT_MAX_TOKENS, 4,096) enforced locally: under the 40,000 characters of REPLY_MAX_CHARS.
    const shown = replies.reduce((n, m) => n + m.text.length, 0);
    expect(shown).toBeLessThanOrEqual(4_096 * 8 + copy.replyTooLong.length + 10);
    expect(replies.length).toBeLessThanOrEqual(10);
    expect(Math.max(...acks)).toBeLessThan(3_000);
  });
});
