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

  it("a mention in an image's thread edits the latest version, kept with its parent", async () => {
    harness = await startJobsHarness();
    const { slack } = harness;
    const bot = slack.identity.botUserId;
    const parent = await slack.userSays({ user: 'U1', channel: CHANNEL, text: `<@${bot}> draw a castle` });
    // The conversation answer is not an image: edit the image of an /imagine posted into a thread instead.
    await slack.waitFor(
      () => slack.workspace.botMessages(bot, { channel: CHANNEL, threadTs: parent.ts }).length > 0 || undefined,
      {
        timeoutMs: 30_000,
      },
    );
    const edit = await slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      threadTs: parent.ts,
      text: `<@${bot}> make it snowy`,
      files: [{ name: 'castle.png', mimetype: 'image/png', bytes: await tinyPngBytes() }],
    });
    const editEvent = edit.deliveries.find((d) => d.eventType === 'app_mention')?.eventId;
    await jobFinished(harness.store, `slack-ev-${editEvent}`);
    const first = await harness.store.versions.latestInThread('slack', CHANNEL, parent.ts);
    expect(first).toMatchObject({
      jobId: `slack-ev-${editEvent}`,
      index: 0,
      prompt: 'make it snowy',
      parent: undefined,
    });
    expect(first?.fileId).toMatch(/^F/);

    const again = await slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      threadTs: parent.ts,
      text: `<@${bot}> now at night`,
    });
    const againEvent = again.deliveries.find((d) => d.eventType === 'app_mention')?.eventId;
    await jobFinished(harness.store, `slack-ev-${againEvent}`);
    expect(await harness.store.jobs.get(`slack-ev-${againEvent}`)).toMatchObject({ outcome: 'done' });
    const second = await harness.store.versions.latestInThread('slack', CHANNEL, parent.ts);
    expect(second).toMatchObject({
      jobId: `slack-ev-${againEvent}`,
      prompt: 'now at night',
      parent: { jobId: `slack-ev-${editEvent}`, index: 0 },
    });
  });
});

async function tinyPngBytes(): Promise<Uint8Array> {
  const sharp = (await import('sharp')).default;
  return new Uint8Array(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .png()
      .toBuffer(),
  );
}
