import { copy } from '@genbot/core/copy';
import { JobScheduler } from '@genbot/core/scheduling';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import { describe, expect, it } from 'vitest';
import { everythingSaid, nthChatRequest, SECRETS, startHarness, type Harness } from './support/harness.js';

function original(h: Harness, interaction: DiscordInteraction | undefined): DiscordMessage | undefined {
  return interaction?.originalMessageId === null || interaction === undefined
    ? undefined
    : h.fake.state.message(interaction.channelId, interaction.originalMessageId);
}

describe('Discord: stopping while work runs and waits, with a drain shorter than the work', () => {
  it('answers new work with the restart line, turns the waiting /imagine away unsent, aborts what runs, and keeps what was asked', async () => {
    const h = await startHarness({ scheduler: new JobScheduler({ image: { concurrency: 1 } }) });
    try {
      const imagesBefore = h.emulator.requests.filter((r) => r.path.includes(':generateContent')).length;
      const running = 'a slow lighthouse [fault:slow=30000]';
      const waiting = 'a harbour at night';
      const first = h.fake.userRunsCommand({
        user: 'ada',
        channelId: h.channelId,
        name: 'imagine',
        options: { prompt: running },
      });
      await h.fake.waitFor(
        (state) => (original(h, state.interaction(first.id))?.content === copy.imagining(running) ? true : undefined),
        10_000,
      );
      const second = h.fake.userRunsCommand({
        user: 'bob',
        channelId: h.channelId,
        name: 'imagine',
        options: { prompt: waiting },
      });
      await h.fake.waitFor(
        (state) =>
          original(h, state.interaction(second.id))?.content === copy.imagineQueued(waiting, 1) ? true : undefined,
        10_000,
      );
      const story = `${h.mention} tell me a long story [len:1500] [delay:400]`;
      const mention = h.fake.userSays({ user: 'ada', channelId: h.channelId, content: story });
      await nthChatRequest(h.emulator, 1);
      const replyTo = (message: DiscordMessage): DiscordMessage | undefined =>
        h.botMessages(h.channelId).find((m) => m.reference?.messageId === message.id);
      await h.fake.waitFor(() => ((replyTo(mention)?.content.length ?? 0) > 20 ? true : undefined), 15_000);

      const stoppedAt = Date.now();
      const stopped = h.bot.stop({ drainMs: 2_000 });
      // The gateway stays up while draining: a mention now is answered, and nothing starts.
      const late = h.fake.userSays({ user: 'bob', channelId: h.channelId, content: `${h.mention} one more thing` });
      await h.fake.waitFor(() => (replyTo(late)?.content === copy.restarting ? true : undefined), 10_000);
      await stopped;
      expect(Date.now() - stoppedAt).toBeLessThan(12_000);

      expect(original(h, h.fake.state.interaction(first.id))?.content).toBe(copy.interruptedByRestart(running));
      expect(original(h, h.fake.state.interaction(second.id))?.content).toBe(copy.interruptedByRestart(waiting));
      expect(h.emulator.requests.filter((r) => r.path.includes(':generateContent')).length - imagesBefore).toBe(1);
      const reply = replyTo(mention)?.content ?? '';
      const note = copy.interruptedByRestart('tell me a long story [len:1500] [delay:400]');
      expect(reply.endsWith(`\n\n${note}`)).toBe(true);
      expect(reply.length).toBeGreaterThan(note.length + 20);
      expect(copy.restarting).toBe("🔄 I'm restarting: please try again in a minute.");
      for (const text of everythingSaid(h)) for (const secret of SECRETS) expect(text).not.toContain(secret);
    } finally {
      await h.stop();
    }
  });
});
