import { copy } from '@genbot/core/copy';
import { JobScheduler } from '@genbot/core/scheduling';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatRequests,
  everythingSaid,
  expectedReply,
  nthChatRequest,
  SECRETS,
  startHarness,
  type Harness,
} from './support/harness.js';

describe('Discord: deleting the mention cancels its reply', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    for (const text of everythingSaid(h)) for (const secret of SECRETS) expect(text).not.toContain(secret);
    await h?.stop();
  });

  function replyTo(mention: DiscordMessage): DiscordMessage | undefined {
    return h.botMessages(h.channelId).find((message) => message.reference?.messageId === mention.id);
  }

  it('stops the model call mid-stream; the reply keeps its text and ends with Cancelled', async () => {
    const count = chatRequests(h.emulator).length;
    // About 30 s of stream: only a cancelled call ends within the wait below.
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} tell me a long story [len:1500] [delay:400]`,
    });
    const request = await nthChatRequest(h.emulator, count + 1);
    await h.fake.waitFor(() => ((replyTo(mention)?.content.length ?? 0) > 20 ? true : undefined), 15_000);

    h.fake.userDeletes({ channelId: h.channelId, messageId: mention.id });
    const reply = await h.fake.waitFor(() => {
      const found = replyTo(mention);
      return found?.content.endsWith(copy.cancelled) === true ? found : undefined;
    }, 10_000);
    // Asked for again only now: the emulator takes the whole stream's time to say it.
    const expected = await expectedReply(h.emulator, request);
    const shown = reply.content.slice(0, -copy.cancelled.length).trimEnd();
    expect(shown.length).toBeGreaterThan(20);
    expect(expected.startsWith(shown)).toBe(true);
    expect(shown.length).toBeLessThan(expected.length);
    expect(h.logs.join('')).toContain('trigger message deleted; its work is cancelled');
  });

  it('leaves a reply alone when an unrelated message is deleted', async () => {
    const other = h.fake.userSays({ user: 'bob', channelId: h.channelId, content: 'just chatting' });
    const count = chatRequests(h.emulator).length;
    const mention = h.fake.userSays({
      user: 'ada',
      channelId: h.channelId,
      content: `${h.mention} a short poem [len:200] [delay:100]`,
    });
    const request = await nthChatRequest(h.emulator, count + 1);
    h.fake.userDeletes({ channelId: h.channelId, messageId: other.id });
    const expected = await expectedReply(h.emulator, request);
    const reply = await h.fake.waitFor(
      () => (replyTo(mention)?.content === expected ? replyTo(mention) : undefined),
      15_000,
    );
    expect(reply?.content).not.toContain(copy.cancelled);
  });
});

describe('Discord: /imagine under the scheduler (images one at a time, two per user)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ scheduler: new JobScheduler({ image: { concurrency: 1, perUser: 2 } }) });
  });
  afterAll(async () => {
    await h?.stop();
  });

  function original(interaction: DiscordInteraction): DiscordMessage | undefined {
    return interaction.originalMessageId === null
      ? undefined
      : h.fake.state.message(interaction.channelId, interaction.originalMessageId);
  }

  /** The interactions once `done` holds for each one's original response. */
  function settled(
    ids: readonly string[],
    done: (content: string) => boolean,
    timeoutMs = 30_000,
  ): Promise<DiscordInteraction[]> {
    return h.fake.waitFor((state) => {
      const found = ids.flatMap((id) => state.interaction(id) ?? []);
      return found.length === ids.length && found.every((i) => done(original(i)?.content ?? '')) ? found : undefined;
    }, timeoutMs);
  }

  it('refuses a third /imagine of one user at once, politely, and sends it nowhere', async () => {
    const before = h.emulator.requests.filter((r) => r.path.includes(':generateContent')).length;
    const prompts = ['a red door [fault:slow=1000]', 'a blue door [fault:slow=1000]', 'a green door [fault:slow=1000]'];
    // A result takes the place of its progress line: its text is the image's comment.
    const done = prompts.map((prompt) => copy.imageComment(prompt));
    const refusal = /^⏳ You already have requests on the way\. Try again in about \d+ seconds?\.$/;
    const started = prompts.map((prompt) =>
      h.fake.userRunsCommand({ user: 'ada', channelId: h.channelId, name: 'imagine', options: { prompt } }),
    );
    const interactions = await settled(
      started.map((i) => i.id),
      (content) => done.includes(content) || refusal.test(content),
    );
    const contents = interactions.map((i) => original(i)?.content ?? '');
    expect(contents.filter((content) => refusal.test(content))).toHaveLength(1);
    expect(contents.filter((content) => done.includes(content))).toHaveLength(2);
    expect(h.emulator.requests.filter((r) => r.path.includes(':generateContent')).length - before).toBe(2);
  });

  it("shows a second user's /imagine its place in line, then completes it", async () => {
    const first = h.fake.userRunsCommand({
      user: 'ada',
      channelId: h.channelId,
      name: 'imagine',
      options: { prompt: 'a slow lighthouse [fault:slow=2000]' },
    });
    await h.fake.waitFor((state) => {
      const interaction = state.interaction(first.id);
      return interaction !== undefined &&
        original(interaction)?.content === copy.imagining('a slow lighthouse [fault:slow=2000]')
        ? true
        : undefined;
    }, 10_000);
    const second = h.fake.userRunsCommand({
      user: 'bob',
      channelId: h.channelId,
      name: 'imagine',
      options: { prompt: 'a quick boat' },
    });
    const [done] = await settled([second.id], (content) => content === copy.imageComment('a quick boat'));
    const response = done === undefined ? undefined : original(done);
    const shown = [...(response?.history ?? []).map((version) => version.content), response?.content ?? ''];
    expect(shown).toContain(copy.imagineQueued('a quick boat', 1));
    expect(shown.indexOf(copy.imagineQueued('a quick boat', 1))).toBeLessThan(
      shown.indexOf(copy.imagining('a quick boat')),
    );
  });
});
