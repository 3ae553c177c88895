import { afterEach, describe, expect, it } from 'vitest';
import { startJobsHarness, type JobsHarness } from './support/jobs-harness.js';
import { jobFinished } from '../support/job-finished.js';

let harness: JobsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const CHANNEL = 'C1';

describe('Slack with the jobs floor (real Bolt, the fake, a SQLite store)', () => {
  it('/imagine is recorded under its trigger_id, answered once, and counted in /usage', async () => {
    harness = await startJobsHarness({ quota: { imagesPerDay: 1 } });
    const { slack } = harness;
    const run = await slack.userRunsCommand({ user: 'U1', channel: CHANNEL, command: '/imagine', text: 'a red kite' });
    expect(run.delivery.attempts[0]?.acked).toBe(true);
    const job = await jobFinished(harness.store, `slack-cmd-${run.triggerId}`);
    expect(job).toMatchObject({
      kind: 'imagine',
      outcome: 'done',
      attempts: 1,
      userId: 'U1',
      workspaceId: slack.identity.teamId,
    });
    const version = await harness.store.versions.get({ jobId: `slack-cmd-${run.triggerId}`, index: 0 });
    expect(version).toMatchObject({ prompt: 'a red kite', channelId: CHANNEL, mimeType: 'image/png' });
    expect(slack.workspace.files.has(version?.fileId ?? '')).toBe(true);

    const usage = await slack.userRunsCommand({ user: 'U1', channel: CHANNEL, command: '/usage', text: '' });
    const answer = slack.workspace.ephemerals.find((e) => e.user === 'U1' && e.source === 'command_ack');
    expect(usage.delivery.attempts[0]?.acked).toBe(true);
    expect(answer?.text).toMatch(
      /^\*Today:\* 1 image, 0 chat tokens\n\*This month:\* 1 image, 0 chat tokens\n\*Left today:\* 0 images \(resets at midnight UTC\)$/,
    );

    // Over the quota: a private answer naming it, and nothing sent to the service.
    const requests = harness.emulator.requests.length;
    await slack.userRunsCommand({ user: 'U1', channel: CHANNEL, command: '/imagine', text: 'another kite' });
    const refusal = slack.workspace.ephemerals.at(-1);
    expect(refusal?.text).toMatch(
      /^🛑 You've used your 1 image for today\. The quota resets at midnight UTC, in about/,
    );
    expect(harness.emulator.requests).toHaveLength(requests);
  });

  it('a mention delivered twice (Slack retry) is one job and one reply', async () => {
    harness = await startJobsHarness();
    const { slack } = harness;
    const mention = await slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      text: `<@${slack.identity.botUserId}> hello there`,
    });
    const eventId = mention.deliveries.find((d) => d.eventType === 'app_mention')?.eventId;
    expect(eventId).toBeDefined();
    await slack.redeliver(eventId!);
    await jobFinished(harness.store, `slack-ev-${eventId}`);
    await harness.queue.idle();
    const replies = slack.workspace.botMessages(slack.identity.botUserId, { channel: CHANNEL, threadTs: mention.ts });
    expect(replies).toHaveLength(1);
    expect(replies[0]?.text).toMatch(/^You said/);
    const { today } = await harness.store.usage.totals({
      platform: 'slack',
      userId: 'U1',
      workspaceId: slack.identity.teamId,
    });
    expect(today.inputTokens + today.outputTokens).toBeGreaterThan(0);
  });

  it('mentions in a thread draw, then edit the latest version each time, every version kept with its parent', async () => {
    harness = await startJobsHarness();
    const { slack, store } = harness;
    /** Mentions the bot as U1 and resolves with the mention's job once it finished. */
    const ask = async (text: string, threadTs?: string) => {
      const said = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        text: `<@${slack.identity.botUserId}> ${text}`,
        ...(threadTs === undefined ? {} : { threadTs }),
      });
      const jobId = `slack-ev-${said.deliveries.find((d) => d.eventType === 'app_mention')?.eventId}`;
      expect(await jobFinished(store, jobId)).toMatchObject({ outcome: 'done' });
      return { ts: said.ts, jobId };
    };
    const latest = () => store.versions.latestInThread('slack', CHANNEL, drawn.ts);

    // The model draws through its tool: the result, in the mention's thread, is a version of its own.
    const drawn = await ask('draw a castle');
    expect(await latest()).toMatchObject({ jobId: drawn.jobId, index: 0, prompt: 'draw a castle', parent: undefined });
    expect((await latest())?.fileId).toMatch(/^F/);

    const snowy = await ask('make it snowy', drawn.ts);
    expect(await latest()).toMatchObject({
      jobId: snowy.jobId,
      index: 0,
      prompt: 'make it snowy',
      parent: { jobId: drawn.jobId, index: 0 },
    });

    const night = await ask('make it night-time', drawn.ts);
    expect(await latest()).toMatchObject({
      jobId: night.jobId,
      prompt: 'make it night-time',
      parent: { jobId: snowy.jobId, index: 0 },
    });
  });
});
