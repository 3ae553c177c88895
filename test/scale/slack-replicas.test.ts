import { copy } from '@genbot/core/copy';
import type { Store } from '@genbot/core/store';
import type { Emulator } from '@genbot/emulator';
import type { SlackFake } from '@genbot/fakes';
import { type Engines, enginesInstalled, type GenbotProcess } from '@genbot/test-servers/genbot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shownText } from '../slack/support/result-messages.js';
import { jobFinished } from '../support/job-finished.js';
import { type Deployment, startDeployment } from './deployment.js';

/**
 * The Slack half of the scaled-out topology as plain processes: two `genbot slack` replicas
 * behind nginx, two `genbot worker` processes, Redis and PostgreSQL, against the Slack fake
 * (and the Discord fake, whose token the workers hold too, as in compose.yaml).
 */

const installed = enginesInstalled();
/** Short, so a killed worker's jobs go to the other one within seconds (production keeps BullMQ's 30 s). */
const JOB_LOCK_MS = 3_000;

let deployment: Deployment;
let engines: Engines;
let slack: SlackFake;
let emulator: Emulator;
let store: Store;
let running: Map<string, GenbotProcess>;

const bot = (): string => slack.identity.botUserId;

function mentionJobId(posted: { deliveries: readonly { eventType?: string; eventId?: string }[] }): string {
  const eventId = posted.deliveries.find((delivery) => delivery.eventType === 'app_mention')?.eventId;
  if (eventId === undefined) throw new Error('the mention was not delivered as an app_mention');
  return `slack-ev-${eventId}`;
}

describe.runIf(installed)('Slack replicas behind nginx, workers, Redis and PostgreSQL', () => {
  beforeAll(async () => {
    deployment = await startDeployment({
      name: 'scale-test',
      workerEnv: { JOB_LOCK_MS: String(JOB_LOCK_MS), WORKER_CHAT_CONCURRENCY: '2' },
    });
    ({ engines, slack, emulator, store, running } = deployment);
    await Promise.all(['slack-1', 'slack-2', 'worker-1', 'worker-2'].map((name) => deployment.start(name)));
    slack.deliverTo(engines.requestUrl);
  }, 120_000);

  afterAll(async () => {
    await deployment?.close();
  }, 60_000);

  it('reports every process ready on its HEALTH_PORT, Redis and PostgreSQL reachable', async () => {
    for (const name of running.keys()) {
      const response = await fetch(`http://127.0.0.1:${engines.healthPorts.get(name)}/readyz`);
      expect(response.status, `${name}: ${await response.text()}`).toBe(200);
    }
  });

  it('answers the same event once when both replicas receive it', async () => {
    const [one, two] = [engines.replicaUrl('slack-1'), engines.replicaUrl('slack-2')];
    slack.deliverTo([one, two]);
    try {
      const mention = await slack.userSays({ user: 'U1', channel: 'C-dup', text: `<@${bot()}> hello from both sides` });
      const eventId = mentionJobId(mention).slice('slack-ev-'.length);
      await Promise.all([slack.redeliver(eventId, { to: one }), slack.redeliver(eventId, { to: two })]);
      const job = await jobFinished(store, mentionJobId(mention), 60_000);
      expect(job).toMatchObject({ outcome: 'done', attempts: 1 });
      const threadTs = mention.threadTs ?? mention.ts;
      const replies = await slack.waitFor(
        () => {
          const found = slack.workspace.botMessages(bot(), { channel: 'C-dup', threadTs });
          return found.length > 0 ? found : undefined;
        },
        { timeoutMs: 10_000, quietMs: 1_500 },
      );
      expect(replies).toHaveLength(1);
      expect(replies[0]?.text).toMatch(/^You said/);
    } finally {
      slack.deliverTo(engines.requestUrl);
    }
  });

  it('answers 50 /imagine spread over the replicas once each', async () => {
    const runs = [];
    for (let batch = 0; batch < 5; batch++) {
      runs.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, i) => {
            const n = batch * 10 + i;
            const tag = `kite-${String(n).padStart(2, '0')}`;
            return slack
              .userRunsCommand({ user: `U${100 + n}`, channel: `C-img-${n % 10}`, command: '/imagine', text: tag })
              .then((run) => ({ run, tag, channel: `C-img-${n % 10}` }));
          }),
        )),
      );
    }
    expect(runs.every(({ run }) => run.delivery.attempts.at(-1)?.acked === true)).toBe(true);
    // nginx spread the commands over both replicas.
    const log = await engines.nginx.accessLog();
    for (const port of engines.slackPorts.values()) expect(log).toContain(`127.0.0.1:${port}`);
    for (const { run } of runs) {
      expect(await jobFinished(store, `slack-cmd-${run.triggerId}`, 120_000)).toMatchObject({ outcome: 'done' });
    }
    const uploads = await slack.waitFor(
      () => {
        const found = slack.workspace.messages.filter((m) => m.user === bot() && m.fileIds.length > 0);
        return found.filter((m) => m.channel.startsWith('C-img-')).length >= 50 ? found : undefined;
      },
      { timeoutMs: 30_000, quietMs: 1_500 },
    );
    for (const { tag, channel } of runs) {
      const mine = uploads.filter((m) => m.channel === channel && shownText(m).includes(tag));
      expect(mine, tag).toHaveLength(1);
      expect(mine[0]?.fileIds, tag).toHaveLength(1);
    }
    // The workers count what they ran on /metrics, each its own: together, every job once.
    const counted = await Promise.all(
      ['worker-1', 'worker-2'].map(async (name) => {
        const text = await (await fetch(`http://127.0.0.1:${engines.healthPorts.get(name)}/metrics`)).text();
        return Number(/^genbot_jobs_total\{kind="imagine",outcome="done"\} (\d+)$/m.exec(text)?.[1] ?? 0);
      }),
    );
    expect(counted[0]! + counted[1]!).toBe(50);
    // Nobody was refused: what some were told privately is where their job stood while it waited for a worker.
    const notes = slack.workspace.ephemerals.filter((e) => e.user.startsWith('U1') && e.channel.startsWith('C-img-'));
    for (const note of notes) expect(note.text).toMatch(/^⏳ “kite-\d\d” is (next|#\d+) in line\.$/);
  }, 240_000);

  it('serves ingress metrics on each replica: deliveries, ack times, jobs queued and refused, 429s, event-loop delay', async () => {
    const scrape = async (): Promise<string[]> =>
      Promise.all(
        ['slack-1', 'slack-2'].map(async (name) => {
          const response = await fetch(`http://127.0.0.1:${engines.healthPorts.get(name)}/metrics`);
          expect(response.status).toBe(200);
          return response.text();
        }),
      );
    /** One sample summed over both replicas (0 where a replica has none yet). */
    const total = (texts: string[], sample: string): number =>
      texts.reduce((sum, text) => {
        const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
        return sum + Number(line?.slice(sample.length + 1) ?? 0);
      }, 0);
    const before = await scrape();

    // One user's third /imagine while two run is refused for their share; a fresh user's name is
    // looked up by the replica that takes the mention, and that users.info meets a 429.
    const channel = 'C-metrics';
    const runs = [];
    for (const tag of ['one', 'two', 'three'])
      runs.push(
        await slack.userRunsCommand({
          user: 'U7',
          channel,
          command: '/imagine',
          text: `metrics ${tag} [fault:slow=3000]`,
        }),
      );
    const stop = slack.rateLimit({ method: 'users.info', failNext: 1 });
    try {
      const mention = await slack.userSays({ user: 'U7-fresh', channel, text: `<@${bot()}> hello metrics` });
      await jobFinished(store, mentionJobId(mention), 60_000);
    } finally {
      stop();
    }
    expect(slack.rateLimitHits.filter((hit) => hit.method === 'users.info')).toHaveLength(1);
    for (const run of runs.slice(0, 2)) await jobFinished(store, `slack-cmd-${run.triggerId}`, 60_000);

    const after = await scrape();
    const delta = (sample: string): number => total(after, sample) - total(before, sample);
    expect(delta('genbot_events_received_total{platform="slack",kind="command"}')).toBe(3);
    expect(delta('genbot_events_received_total{platform="slack",kind="app_mention"}')).toBe(1);
    expect(delta('genbot_jobs_queued_total{kind="imagine"}')).toBe(2);
    expect(delta('genbot_jobs_queued_total{kind="mention"}')).toBe(1);
    expect(delta('genbot_jobs_refused_total{kind="imagine",reason="share"}')).toBe(1);
    expect(delta('genbot_platform_rate_limited_total{platform="slack",route="users.info"}')).toBe(1);
    // Every request the replicas answered is timed: the three commands, and the mention's events.
    expect(delta('genbot_ack_seconds_count{platform="slack"}')).toBeGreaterThanOrEqual(4);
    for (const text of after) expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
  }, 120_000);

  it('stops a reply streaming in a worker when its mention is deleted, and marks it as in-process', async () => {
    const channel = 'C-del';
    // About 40 s of stream: only a cancelled one ends within the waits below.
    const mention = await slack.userSays({
      user: 'U5',
      channel,
      text: `<@${bot()}> tell me a long story [len:4000] [delay:400]`,
    });
    const threadTs = mention.threadTs ?? mention.ts;
    const replies = () => slack.workspace.botMessages(bot(), { channel, threadTs });
    await slack.waitFor(() => (replies()[0]?.text.length ?? 0) > 20, { timeoutMs: 30_000 });

    // The balancer may hand the deletion to either replica: neither runs the job.
    const deleted = await slack.userDeletes({ channel, ts: mention.ts });
    expect(deleted?.attempts.at(-1)).toMatchObject({ acked: true });
    expect(await jobFinished(store, mentionJobId(mention), 15_000)).toMatchObject({ outcome: 'failed', attempts: 1 });
    const [reply, ...more] = await slack.waitFor(
      () => {
        const found = replies();
        return /_Cancelled\._$/.test(found[0]?.text ?? '') ? found : undefined;
      },
      { timeoutMs: 10_000, quietMs: 1_500 },
    );
    expect(more).toEqual([]);
    expect(reply?.text).toMatch(/^You said/);
    expect(reply?.text.length).toBeLessThan(2_000);
  }, 120_000);

  it('never runs a job still waiting in the queue when its mention is deleted', async () => {
    // Two workers, two chat jobs each: four long replies hold every place.
    const holders: Awaited<ReturnType<SlackFake['userSays']>>[] = [];
    for (let i = 0; i < 4; i++) {
      holders.push(
        await slack.userSays({
          user: `U6${i}`,
          channel: `C-hold-${i}`,
          text: `<@${bot()}> tell me a long story [len:4000] [delay:400]`,
        }),
      );
    }
    const replyOf = (channel: string, posted: { ts: string; threadTs?: string | undefined }) =>
      slack.workspace.botMessages(bot(), { channel, threadTs: posted.threadTs ?? posted.ts });
    await slack.waitFor(() => holders.every((posted, i) => replyOf(`C-hold-${i}`, posted).length > 0), {
      timeoutMs: 60_000,
    });
    const waiting = await slack.userSays({
      user: 'U69',
      channel: 'C-wait',
      text: `<@${bot()}> describe a harbour nobody asked about`,
    });
    await vi.waitFor(async () => expect((await store.jobs.get(mentionJobId(waiting)))?.state).toBe('queued'), {
      timeout: 10_000,
      interval: 100,
    });
    await slack.userDeletes({ channel: 'C-wait', ts: waiting.ts });
    // Places free up: the waiting job is taken, and ends unrun.
    for (const [i, posted] of holders.entries()) await slack.userDeletes({ channel: `C-hold-${i}`, ts: posted.ts });
    expect(await jobFinished(store, mentionJobId(waiting), 30_000)).toMatchObject({
      outcome: 'rejected',
      outcomeDetail: 'cancelled',
    });
    for (const posted of holders)
      expect(await jobFinished(store, mentionJobId(posted), 30_000)).toMatchObject({ outcome: 'failed' });
    expect(replyOf('C-wait', waiting)).toEqual([]);
    expect(emulator.requests.filter((request) => JSON.stringify(request.body).includes('harbour nobody'))).toEqual([]);
  }, 180_000);

  it('lets a replica stopped mid-stream exit 0 while the reply completes', async () => {
    slack.deliverTo(engines.replicaUrl('slack-2'));
    try {
      const mention = await slack.userSays({
        user: 'U2',
        channel: 'C-term',
        text: `<@${bot()}> tell me a long story [len:1500] [delay:100]`,
      });
      const threadTs = mention.threadTs ?? mention.ts;
      await slack.waitFor(
        () => (slack.workspace.botMessages(bot(), { channel: 'C-term', threadTs })[0]?.edits.length ?? 0) > 0,
        {
          timeoutMs: 30_000,
        },
      );
      const replicaTwo = running.get('slack-2');
      expect((await replicaTwo?.stop(40_000))?.code).toBe(0);
      running.delete('slack-2');
      expect(await jobFinished(store, mentionJobId(mention), 60_000)).toMatchObject({ outcome: 'done', attempts: 1 });
      const [reply, ...more] = slack.workspace.botMessages(bot(), { channel: 'C-term', threadTs });
      expect(more).toEqual([]);
      expect(reply?.text).toMatch(/^You said/);
      expect(reply?.text.length).toBeGreaterThan(1_000);
      expect(reply?.text).not.toContain(copy.restarting);
    } finally {
      slack.deliverTo(engines.requestUrl);
    }
  }, 120_000);

  it('finishes every job exactly once when a worker is killed mid-job', async () => {
    const mentions: Awaited<ReturnType<SlackFake['userSays']>>[] = [];
    for (let i = 0; i < 6; i++) {
      mentions.push(
        await slack.userSays({
          user: `U3${i}`,
          channel: `C-kill-${i}`,
          text: `<@${bot()}> tell me a long story [len:2500] [delay:120]`,
        }),
      );
    }
    const replyOf = (i: number) => {
      const posted = mentions[i];
      if (posted === undefined) return [];
      return slack.workspace.botMessages(bot(), { channel: `C-kill-${i}`, threadTs: posted.threadTs ?? posted.ts });
    };
    // Each worker runs two chat jobs at once: four replies streaming means both hold jobs.
    await slack.waitFor(() => mentions.filter((_, i) => (replyOf(i)[0]?.edits.length ?? 0) > 0).length >= 4, {
      timeoutMs: 60_000,
    });
    const victim = running.get('worker-1');
    victim?.child.kill('SIGKILL');
    expect((await victim?.exited)?.signal).toBe('SIGKILL');
    running.delete('worker-1');

    const jobs = [];
    for (const mention of mentions) jobs.push(await jobFinished(store, mentionJobId(mention), 120_000));
    expect(jobs.map((job) => job.outcome)).toEqual(jobs.map(() => 'done'));
    // The killed worker held jobs: they were taken again, and resumed in the message they had posted.
    expect(jobs.filter((job) => job.attempts === 2).length).toBeGreaterThanOrEqual(1);
    for (const job of jobs) expect(job.steps.filter((step) => step.name === 'posted')).toHaveLength(1);
    for (let i = 0; i < mentions.length; i++) {
      const [reply, ...more] = replyOf(i);
      expect(more, `C-kill-${i}`).toEqual([]);
      expect(reply?.text, `C-kill-${i}`).toMatch(/^You said/);
      expect(reply?.text.length, `C-kill-${i}`).toBeGreaterThan(2_000);
    }
  }, 240_000);
  it('lets a worker stopped with SIGTERM mid-job finish it and exit 0', async () => {
    const mention = await slack.userSays({
      user: 'U4',
      channel: 'C-drain',
      text: `<@${bot()}> tell me a long story [len:1500] [delay:100]`,
    });
    const threadTs = mention.threadTs ?? mention.ts;
    await slack.waitFor(
      () => (slack.workspace.botMessages(bot(), { channel: 'C-drain', threadTs })[0]?.edits.length ?? 0) > 0,
      { timeoutMs: 30_000 },
    );
    // The one worker left: BullMQ's close() lets its job finish within the drain.
    const last = running.get('worker-2');
    expect((await last?.stop(40_000))?.code).toBe(0);
    running.delete('worker-2');
    expect(await store.jobs.get(mentionJobId(mention))).toMatchObject({
      state: 'finished',
      outcome: 'done',
      attempts: 1,
    });
    const [reply, ...more] = slack.workspace.botMessages(bot(), { channel: 'C-drain', threadTs });
    expect(more).toEqual([]);
    expect(reply?.text.length).toBeGreaterThan(1_000);
    expect(reply?.text).not.toContain('restarting');
  }, 120_000);

  it('tells the user of a job waiting in Redis for a worker its place, privately, until a worker answers it', async () => {
    // No worker left running: the replica records and enqueues, and the job waits in Redis.
    for (const name of ['worker-1', 'worker-2']) {
      await running.get(name)?.stop(40_000);
      running.delete(name);
    }
    const channel = 'C-wait-for-worker';
    const first = await slack.userSays({ user: 'U51', channel, text: `<@${bot()}> first in line` });
    const second = await slack.userSays({ user: 'U52', channel, text: `<@${bot()}> second in line` });
    const notes = await slack.waitFor(
      () => {
        const found = slack.workspace.ephemerals.filter((e) => e.channel === channel);
        return found.length >= 2 ? found : undefined;
      },
      { timeoutMs: 20_000 },
    );
    // Each in its own thread, to its user alone; the replicas may enqueue the two in either order.
    expect(notes.map((note) => [note.user, note.threadTs, note.source])).toEqual(
      expect.arrayContaining([
        ['U51', first.ts, 'chat.postEphemeral'],
        ['U52', second.ts, 'chat.postEphemeral'],
      ]),
    );
    expect(notes.map((note) => note.text).sort()).toEqual([copy.chatQueued(2), copy.chatQueued(1)].sort());
    expect(slack.workspace.botMessages(bot(), { channel })).toEqual([]);
    await deployment.start('worker-1');
    for (const mention of [first, second]) {
      expect(await jobFinished(store, mentionJobId(mention), 60_000)).toMatchObject({ outcome: 'done', attempts: 1 });
      const [reply, ...more] = slack.workspace.botMessages(bot(), { channel, threadTs: mention.ts });
      expect(more).toEqual([]);
      expect(reply?.text).toMatch(/^You said/);
    }
  }, 120_000);
});
