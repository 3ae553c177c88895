/**
 * Issue 17, end to end: genbot as it runs at scale, a Slack replica (the
 * ingress) and `genbot worker` processes on a real Redis and PostgreSQL, the
 * Slack fake and the emulator here, started by the scale tests' rig
 * (@genbot/test-servers/genbot) as compose.yaml runs them.
 *
 * - Image-job throughput with 1, 2 and 4 workers: /imagine spread over as many
 *   channels as commands (so no channel's post budget is measured), against
 *   the emulator holding every image for a fixed time (`[fault:slow=MS]`), so
 *   the work waits on the service as in production. Baseline: 1 worker's time
 *   divided by the worker count (linear).
 * - The ingress's event-loop delay p99 (its own /metrics, prom-client's
 *   monitor, reset by each scrape) while 50 concurrent 4 MiB /imagine run in
 *   4 workers. Baseline: the same replica over an idle window as long.
 * - Slack ack latency p99 on the one replica at 200 events a second (a
 *   mention is two events, `message` and `app_mention`; each mention from its
 *   own user, recorded in PostgreSQL and queued on Redis; no worker takes
 *   them). Baseline: the same at 20 a second. The replica's CPU seconds over
 *   the burst go to stderr, to tell a saturated replica from a busy machine.
 * - Exactly once: images uploaded twice and requests never answered over the
 *   image runs; mentions never recorded as a job, and mentions whose events
 *   were not acknowledged in Slack's time (so Slack would deliver them again).
 */
import { type DiscordFake, type SlackFake, startDiscordFake, startSlackFake } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import {
  type Engines,
  enginesMissing,
  type GenbotProcess,
  type Outside,
  outsideOf,
  processNamed,
  startEngines,
  workerProcess,
} from '@genbot/test-servers/genbot';
import pg from 'pg';
import { IMAGE_MODEL } from './chat-rig.js';
import { percentile } from './stats.js';
import { boundedRow, row, type BenchContext, type Benchmark, type Row } from './suite.js';

/**
 * Long against a job's own steps (its progress post, upload and final edit, each
 * waiting its turn in the channel's budget of about one a second), so the run
 * measures how the workers share the waiting, as in production.
 */
const SERVICE_DELAY_MS = 2000;
/** A multiple of every worker count times the concurrency: each run ends on a full round. */
const JOBS = 64;
/** Image jobs one worker runs at once in the throughput runs. */
const THROUGHPUT_CONCURRENCY = 4;
const WORKER_COUNTS = [1, 2, 4] as const;
/** The floors: 0.9x linear at 2 workers, 0.75x at 4, as bounds on time over linear time. */
const TARGETS: Record<number, number> = { 2: 1 / 0.9, 4: 1 / 0.75 };

const BIG_IMAGES = 50;
const BIG_IMAGE_WORKERS = 4;
const IMAGE_MIB = 4;
const TARGET_LOOP_DELAY_MS = 20;
/**
 * packages/health's eventLoopMonitoringPrecision: Node's monitor records the
 * whole time between its ticks, so an idle loop reads this much; the delay is
 * what comes on top.
 */
const LOOP_MONITOR_TICK_MS = 10;

const EVENTS_PER_SECOND = 200;
const BASELINE_EVENTS_PER_SECOND = 20;
const EVENT_SECONDS = 5;
const TARGET_ACK_MS = 100;
/** How long a stopping process is given before it is killed. */
const STOP_GRACE_MS = 20_000;

/** The replica of the topology that takes Slack's events here (the balancer is left out of the measure). */
const REPLICA = 'slack-1';

interface Deployment {
  engines: Engines;
  slack: SlackFake;
  discord: DiscordFake;
  outside: Outside;
  replica: GenbotProcess;
  metricsUrl: string;
  database: pg.Pool;
}

/** Images uploaded into each of `channels`. */
function uploadsPer(slack: SlackFake, channels: readonly string[]): number[] {
  const counts = new Map(channels.map((channel) => [channel, 0]));
  for (const file of slack.workspace.files.values()) {
    if (file.completed && file.channel !== undefined && counts.has(file.channel)) {
      counts.set(file.channel, (counts.get(file.channel) ?? 0) + 1);
    }
  }
  return channels.map((channel) => counts.get(channel) ?? 0);
}

interface Tally {
  duplicates: number;
  losses: number;
}

/**
 * Runs `count` /imagine of `prompt`, each from its own user in its own channel
 * (so its images are told apart by channel), until each has its image or the
 * time is up; the seconds it took.
 */
async function imagineAll(
  deployment: Deployment,
  run: { tag: string; prompt: string; count: number },
  timeoutMs: number,
  tally: Tally,
): Promise<number> {
  const { slack } = deployment;
  const channels = Array.from({ length: run.count }, (_, index) => `C${run.tag}X${index}`);
  const started = performance.now();
  await Promise.all(
    channels.map((channel, index) =>
      slack.userRunsCommand({ user: `U${run.tag}X${index}`, channel, command: '/imagine', text: run.prompt }),
    ),
  );
  const done = () => uploadsPer(slack, channels).every((count) => count > 0);
  await eventually(done, { timeoutMs, everyMs: 20 }).catch(() => undefined);
  const seconds = (performance.now() - started) / 1000;
  const counts = uploadsPer(slack, channels);
  tally.losses += counts.filter((count) => count === 0).length;
  tally.duplicates += counts.reduce((sum, count) => sum + Math.max(0, count - 1), 0);
  return seconds;
}

async function startWorkers(deployment: Deployment, count: number, concurrency: number): Promise<GenbotProcess[]> {
  const env = { IMAGE_MODEL, WORKER_IMAGE_CONCURRENCY: String(concurrency) };
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      deployment.engines.start(workerProcess(`worker-${index + 1}`), deployment.outside, { env }),
    ),
  );
}

/** The replica's event-loop delay p99 since the last scrape, in ms (prom-client resets its monitor on each). */
async function loopDelayP99(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const match = /^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(text);
  if (match?.[1] === undefined) throw new Error('no nodejs_eventloop_lag_p99_seconds in /metrics');
  return Math.max(0, Number(match[1]) * 1000 - LOOP_MONITOR_TICK_MS);
}

/**
 * Mentions for EVENT_SECONDS, each from its own user (one user's share of the
 * line is not measured here), at the rate that makes `eventsPerSecond` events
 * (a mention is delivered as a `message` and an `app_mention` event): each
 * mention's time until all its events were acknowledged, and how many were not.
 */
async function mentionBurst(slack: SlackFake, eventsPerSecond: number, eventsPerMention: number, tag: string) {
  const perSecond = eventsPerSecond / eventsPerMention;
  const total = Math.round(perSecond * EVENT_SECONDS);
  const intervalMs = 1000 / perSecond;
  const started = performance.now();
  const sent: Promise<{ ms: number; acked: boolean }>[] = [];
  for (let index = 0; index < total; index++) {
    const due = started + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = performance.now();
    sent.push(
      slack
        .userSays({
          user: `U${tag}X${index}`,
          channel: `C${tag}X${index % 50}`,
          text: `<@${slack.identity.botUserId}> ${tag} ${index}`,
        })
        .then((posted) => ({
          ms: performance.now() - at,
          acked: posted.deliveries.every((delivery) => delivery.acked),
        })),
    );
  }
  const results = await Promise.all(sent);
  return {
    p99: percentile(
      results.map((result) => result.ms),
      99,
    ),
    unacked: results.filter((result) => !result.acked).length,
    total,
  };
}

/** What the replica's process has spent on the CPU so far (its /metrics), to tell a saturated replica from a slow machine. */
async function replicaCpuSeconds(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
}

async function mentionJobs(database: pg.Pool): Promise<number> {
  const result = await database.query<{ count: string }>(
    "SELECT count(*) AS count FROM jobs WHERE platform = 'slack' AND kind = 'mention'",
  );
  return Number(result.rows[0]?.count ?? 0);
}

async function startDeployment(context: BenchContext, engines: Engines): Promise<Deployment> {
  const slack = await startSlackFake({ botToken: 'xoxb-bench-scale', signingSecret: 'bench-scale-secret' });
  // The workers hold the Discord token too, as in compose.yaml.
  const discord = await startDiscordFake({ botToken: 'bench-scale-discord-token' });
  const outside: Outside = outsideOf({ baseUrl: context.emulatorUrl, apiKey: context.apiKey }, slack, discord);
  // BENCH_INGRESS_CPU_PROF=DIR: a CPU profile of the replica, written into DIR when it stops.
  const profileDir = process.env.BENCH_INGRESS_CPU_PROF;
  const replica = await engines.start(processNamed(REPLICA), outside, {
    env: { IMAGE_MODEL },
    ...(profileDir === undefined || profileDir === ''
      ? {}
      : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] }),
  });
  // Straight to the replica, as before the balancer was in the topology: its ack time is what is measured.
  slack.deliverTo(engines.replicaUrl(REPLICA));
  const database = new pg.Pool({ connectionString: engines.postgres.url, max: 2 });
  // PostgreSQL stops at the end of the section; an idle connection it ends must not end the run.
  database.on('error', () => undefined);
  return { engines, slack, discord, outside, replica, metricsUrl: `${engines.healthUrl(REPLICA)}/metrics`, database };
}

async function measure(context: BenchContext, engines: Engines): Promise<Row[]> {
  const deployment = await startDeployment(context, engines);
  const tally: Tally = { duplicates: 0, losses: 0 };
  try {
    const seconds: Record<number, number> = {};
    for (const count of WORKER_COUNTS) {
      const workers = await startWorkers(deployment, count, THROUGHPUT_CONCURRENCY);
      try {
        const prompt = `a lighthouse at dawn [fault:slow=${SERVICE_DELAY_MS}]`;
        seconds[count] = await imagineAll(deployment, { tag: `T${count}`, prompt, count: JOBS }, 120_000, tally);
        process.stderr.write(`bench: scale-out, ${count} worker(s): ${seconds[count].toFixed(2)} s\n`);
      } finally {
        await Promise.all(workers.map((worker) => worker.stop(STOP_GRACE_MS)));
      }
    }

    const workers = await startWorkers(deployment, BIG_IMAGE_WORKERS, Math.ceil(BIG_IMAGES / BIG_IMAGE_WORKERS));
    let loaded: number;
    let idle: number;
    try {
      await loopDelayP99(deployment.metricsUrl);
      const idleStarted = performance.now();
      // One prompt for all, so the emulator encodes the image once; each is its own job all the same.
      const prompt = `a benchmark picture [mb:${IMAGE_MIB}]`;
      const bigSeconds = await imagineAll(deployment, { tag: 'BIG', prompt, count: BIG_IMAGES }, 180_000, tally);
      loaded = await loopDelayP99(deployment.metricsUrl);
      await new Promise((resolve) => setTimeout(resolve, Math.min(bigSeconds * 1000, 10_000)));
      idle = await loopDelayP99(deployment.metricsUrl);
      process.stderr.write(
        `bench: scale-out, ${BIG_IMAGES} x ${IMAGE_MIB} MiB in ${bigSeconds.toFixed(1)} s (from ${((performance.now() - idleStarted) / 1000).toFixed(1)} s)\n`,
      );
    } finally {
      await Promise.all(workers.map((worker) => worker.stop(STOP_GRACE_MS)));
    }

    const probe = await deployment.slack.userSays({
      user: 'UPROBE',
      channel: 'CPROBE',
      text: `<@${deployment.slack.identity.botUserId}> probe`,
    });
    const eventsPerMention = Math.max(1, probe.deliveries.length);
    const before = await mentionJobs(deployment.database);
    const light = await mentionBurst(deployment.slack, BASELINE_EVENTS_PER_SECOND, eventsPerMention, 'LIGHT');
    const cpuBefore = await replicaCpuSeconds(deployment.metricsUrl);
    const burstStarted = performance.now();
    const heavy = await mentionBurst(deployment.slack, EVENTS_PER_SECOND, eventsPerMention, 'HEAVY');
    process.stderr.write(
      `bench: scale-out, ${EVENTS_PER_SECOND} events/s: the replica used ${((await replicaCpuSeconds(deployment.metricsUrl)) - cpuBefore).toFixed(1)} s of CPU in ${((performance.now() - burstStarted) / 1000).toFixed(1)} s\n`,
    );
    const expected = light.total + heavy.total;
    const allRecorded = async () => {
      const count = await mentionJobs(deployment.database);
      return count - before >= expected ? count : undefined;
    };
    const recorded =
      (await eventually(allRecorded, { timeoutMs: 10_000, everyMs: 200 }).catch(() => undefined)) ??
      (await mentionJobs(deployment.database));
    const unrecorded = Math.max(0, expected - (recorded - before));
    const late = light.unacked + heavy.unacked;

    const one = seconds[1] ?? Number.NaN;
    return [
      boundedRow(
        `scale-out: ${JOBS} /imagine through Slack, 1 worker x ${THROUGHPUT_CONCURRENCY} (vs the service's own time)`,
        's',
        one,
        (JOBS / THROUGHPUT_CONCURRENCY) * (SERVICE_DELAY_MS / 1000),
      ),
      ...WORKER_COUNTS.filter((count) => count > 1).map((count) =>
        row(
          `scale-out: ${JOBS} /imagine through Slack, ${count} workers (vs linear)`,
          's',
          seconds[count] ?? Number.NaN,
          one / count,
          TARGETS[count],
        ),
      ),
      boundedRow(
        `scale-out: ingress event-loop delay p99 while ${BIG_IMAGES} x ${IMAGE_MIB} MiB /imagine run in ${BIG_IMAGE_WORKERS} workers (vs idle)`,
        'ms',
        loaded,
        idle,
        TARGET_LOOP_DELAY_MS,
      ),
      boundedRow(
        `scale-out: Slack ack latency p99 at ${EVENTS_PER_SECOND} events/s (${EVENTS_PER_SECOND / eventsPerMention} mentions/s), one replica (vs ${BASELINE_EVENTS_PER_SECOND}/s)`,
        'ms',
        heavy.p99,
        light.p99,
        TARGET_ACK_MS,
      ),
      boundedRow('scale-out: images uploaded twice, all runs', 'jobs', tally.duplicates, 0, 0),
      boundedRow('scale-out: requests never answered, all runs', 'jobs', tally.losses, 0, 0),
      boundedRow('scale-out: mentions never recorded as a job (lost)', 'mentions', unrecorded, 0, 0),
      boundedRow(
        "scale-out: mentions not acknowledged in Slack's time (Slack delivers them again)",
        'mentions',
        late,
        0,
        0,
      ),
    ];
  } finally {
    await deployment.replica.stop(STOP_GRACE_MS);
    await deployment.database.end();
    await deployment.slack.close();
    await deployment.discord.close();
  }
}

export const scaleOut: Benchmark = {
  name: 'scale-out (Slack replica and genbot workers on Redis and PostgreSQL)',
  async run(context) {
    const missing = enginesMissing();
    if (missing.length > 0) {
      process.stderr.write(`bench: ${missing.join(' and ')} not installed, the scale-out rows are left out\n`);
      return [];
    }
    const engines = await startEngines();
    try {
      return await measure(context, engines);
    } finally {
      await engines.close();
    }
  },
};
