import { copy } from '@genbot/core/copy';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { originalText } from './support/results.js';
import { startHarness, type Harness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  // No worker yet: every job waits for one in the job queue.
  h = await startHarness({ worker: false });
});

afterAll(async () => {
  await h?.stop();
});

function repliesTo(mention: DiscordMessage): DiscordMessage[] {
  return h.botMessages(h.channelId).filter((message) => message.reference?.messageId === mention.id);
}

function current(started: DiscordInteraction): DiscordInteraction {
  const found = h.fake.state.interaction(started.id);
  if (found === undefined) throw new Error(`no interaction ${started.id}`);
  return found;
}

describe('Discord: jobs waiting for a worker show their place in line', () => {
  it('in the deferred answer of /imagine and in a reply to a mention, each then turned into the job’s own', async () => {
    const prompts = ['a lamp', 'a chair'];
    const imagines = prompts.map((prompt) =>
      h.fake.userRunsCommand({ user: 'ada', channelId: h.channelId, name: 'imagine', options: { prompt } }),
    );
    const mentions = ['first', 'second'].map((word) =>
      h.fake.userSays({ user: 'bob', channelId: h.channelId, content: `${h.mention} ${word} question` }),
    );
    // Each interaction was accepted before the second came, so each knows its place.
    await h.fake.waitFor(
      () =>
        imagines.every((started) => originalText(h.fake, current(started))?.endsWith('in line.')) &&
        mentions.every((mention) => repliesTo(mention).length === 1),
      10_000,
    );
    expect(imagines.map((started) => originalText(h.fake, current(started)))).toEqual([
      copy.imagineQueued('a lamp', 1),
      copy.imagineQueued('a chair', 2),
    ]);
    expect(imagines.map((started) => current(started).ephemeral)).toEqual([false, false]);
    expect(mentions.map((mention) => repliesTo(mention).map((reply) => reply.content))).toEqual([
      [copy.chatQueued(1)],
      [copy.chatQueued(2)],
    ]);
    const places = mentions.map((mention) => repliesTo(mention)[0]?.id);
    // A place is the job's first post once recorded; a worker taking the job before that would
    // rightly post its own reply (and take the place back), so the worker starts after.
    await vi.waitFor(
      async () => {
        const jobs = await Promise.all(mentions.map((mention) => h.store.jobs.get(`dc-msg-${mention.id}`)));
        expect(jobs.map((job) => job?.steps.map((step) => step.messageId))).toEqual(places.map((id) => [id]));
      },
      { timeout: 10_000, interval: 20 },
    );

    await h.startWorker();
    await h.fake.waitFor(
      () =>
        // The result (images and buttons) takes the deferred answer's place, as without a wait.
        imagines.every((started, i) => originalText(h.fake, current(started)) === copy.imageComment(prompts[i]!)) &&
        mentions.every((mention) => repliesTo(mention)[0]?.content.startsWith('You said')),
      20_000,
    );
    // The place became the answer: one reply a mention, edited in place.
    expect(mentions.map((mention) => repliesTo(mention).map((reply) => reply.id))).toEqual(places.map((id) => [id]));
  });
});

describe('Discord: a job waiting for a worker whose mention is deleted', () => {
  let w: Harness;
  beforeAll(async () => {
    w = await startHarness({ worker: false });
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('takes its place in line back, ends as cancelled and never runs; the others still do', async () => {
    const replies = (mention: DiscordMessage): DiscordMessage[] =>
      w.botMessages(w.channelId).filter((message) => message.reference?.messageId === mention.id);
    const withdrawn = w.fake.userSays({ user: 'bob', channelId: w.channelId, content: `${w.mention} never mind` });
    const kept = w.fake.userSays({ user: 'ada', channelId: w.channelId, content: `${w.mention} still here` });
    await vi.waitFor(
      async () => {
        const jobs = await Promise.all([withdrawn, kept].map((mention) => w.store.jobs.get(`dc-msg-${mention.id}`)));
        expect(jobs.map((job) => job?.steps.length)).toEqual([1, 1]);
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(replies(withdrawn).map((reply) => reply.content)).toEqual([copy.chatQueued(1)]);

    w.fake.userDeletes({ channelId: w.channelId, messageId: withdrawn.id });
    await w.fake.waitFor(() => replies(withdrawn).length === 0, 10_000);
    expect(await w.store.jobs.get(`dc-msg-${withdrawn.id}`)).toMatchObject({
      state: 'finished',
      outcome: 'rejected',
      outcomeDetail: 'cancelled',
    });

    await w.startWorker();
    await w.fake.waitFor(() => replies(kept)[0]?.content.startsWith('You said') === true, 20_000);
    expect(replies(withdrawn)).toEqual([]);
    expect(w.emulator.requests.map((request) => JSON.stringify(request))).not.toContainEqual(
      expect.stringContaining('never mind'),
    );
  });
});
