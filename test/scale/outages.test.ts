import { getPriority } from 'node:os';
import { copy } from '@genbot/core/copy';
import { eventually } from '@genbot/test-servers';
import { enginesInstalled, type GenbotProcess } from '@genbot/test-servers/genbot';
import { afterEach, describe, expect, it } from 'vitest';
import { type Deployment as Topology, startDeployment as startTopology } from './deployment.js';

/**
 * The engines of a scaled deployment failing under it: Redis going away and
 * coming back, PostgreSQL restarting. A Slack replica and a worker of the
 * topology run as processes; while an engine is down new work is refused in
 * words that say trying again later helps, /readyz answers 503 naming the
 * engine, nothing accepted is lost or answered twice, and work resumes once it
 * is back.
 */
const installed = enginesInstalled();

const REPLICA = 'slack-1';
const WORKER = 'worker-1';

let started: Topology | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

/** The topology with its Slack replica and a worker up. */
type Deployment = Topology & { replica: GenbotProcess; worker: GenbotProcess };

async function startDeployment(): Promise<Deployment> {
  // A worker that dies mid-outage hands its job on within seconds, not the default 30.
  const topology = await startTopology({ name: 'outages', workerEnv: { JOB_LOCK_MS: '4000' } });
  started = topology;
  const [replica, worker] = await Promise.all([topology.start(REPLICA), topology.start(WORKER)]);
  // Straight to the replica: the other one behind the balancer is not running.
  topology.slack.deliverTo(topology.engines.replicaUrl(REPLICA));
  return { ...topology, replica, worker };
}

async function readyz(url: string): Promise<{ status: number; body: string }> {
  const ask = () => fetch(`${url}/readyz`);
  // A kept-alive connection the server closed between two probes resets once: ask again on a new one.
  const response = await ask().catch(ask);
  return { status: response.status, body: await response.text() };
}

let users = 0;
/** The channel each prompt was asked in. */
const channels = new Map<string, string>();

/**
 * `/imagine` as a user runs it, each time another user (one user's share of
 * the line is not what these tests are about): the private answer it got (a
 * refusal), if any.
 */
async function imagine(deployment: Deployment, prompt: string): Promise<string | undefined> {
  const { slack } = deployment;
  const user = `U${++users}`;
  const before = slack.workspace.ephemerals.length;
  // Each in its own channel, so its images are told apart by where they are.
  channels.set(prompt, `C${user}`);
  const run = await slack.userRunsCommand({ user, channel: `C${user}`, command: '/imagine', text: prompt });
  expect(run.delivery.attempts[0]?.acked).toBe(true);
  return slack.workspace.ephemerals.slice(before).find((message) => message.user === user)?.text;
}

/** Until the job's progress message is up: a worker took it and is waiting on the service. */
async function running(deployment: Deployment, prompt: string): Promise<void> {
  const progress = copy.imagining(prompt);
  await eventually(() => deployment.slack.workspace.messages.some((message) => message.text.includes(progress)), {
    timeoutMs: 30_000,
    what: () => logs(deployment),
  });
}

/** Images uploaded for `prompt`, over every process. */
function uploads(deployment: Deployment, prompt: string): number {
  const channel = channels.get(prompt);
  return [...deployment.slack.workspace.files.values()].filter((file) => file.completed && file.channel === channel)
    .length;
}

function logs(deployment: Deployment): string {
  return `replica:\n${deployment.replica.stderr().slice(-2000)}\nworker:\n${deployment.worker.stderr().slice(-2000)}`;
}

/** Every job in the store ended, none twice: the worker has nothing left to do. */
async function expectAllFinished(deployment: Deployment): Promise<void> {
  expect(await deployment.store.jobs.unfinished(['slack'])).toEqual([]);
}

/** Waits until the replica's and the worker's /readyz answer `status`; their bodies then. */
async function untilEveryProcessAnswers(deployment: Deployment, status: 200 | 503): Promise<string[]> {
  const bodies: string[] = [];
  for (const name of [REPLICA, WORKER]) {
    const answer = await eventually(
      async () => {
        const seen = await readyz(deployment.engines.healthUrl(name));
        return seen.status === status && seen;
      },
      { timeoutMs: 30_000, what: () => logs(deployment) },
    );
    bodies.push(answer.body);
  }
  return bodies;
}

/**
 * Every accepted prompt uploaded, and once: the processes are stopped first, so nothing is left
 * to run and a second upload would be here now. The refused one never ran.
 */
async function expectAnsweredOnce(deployment: Deployment, accepted: readonly string[], refused: string): Promise<void> {
  for (const prompt of accepted) {
    await eventually(() => uploads(deployment, prompt) > 0, {
      timeoutMs: 60_000,
      what: () => `${prompt}\n${logs(deployment)}`,
    });
  }
  expect((await deployment.worker.stop(15_000)).code).toBe(0);
  expect((await deployment.replica.stop(15_000)).code).toBe(0);
  for (const prompt of accepted) expect(uploads(deployment, prompt)).toBe(1);
  expect(uploads(deployment, refused)).toBe(0);
  await expectAllFinished(deployment);
}

describe.runIf(installed)('a scaled deployment while its engines fail', () => {
  it('Redis going away mid-run and coming back: refused in words while away, nothing accepted lost, work resumes', async () => {
    const deployment = await startDeployment();
    // The worker gives the CPU way to the bot on the same machine; the bot keeps its priority.
    expect(getPriority(deployment.worker.child.pid)).toBe(10);
    expect(getPriority(deployment.replica.child.pid)).toBe(getPriority());
    expect(copy.queueUnavailable).toBe(
      "⚠️ I can't take requests right now (my job queue is unavailable). Please try again in a few minutes.",
    );
    // One job running in the worker (the service takes its time) and one waiting behind it on Redis.
    const slow = 'a lighthouse through the outage [fault:slow=4000]';
    const queued = 'a harbour queued before the outage';
    expect(await imagine(deployment, slow)).toBeUndefined();
    await running(deployment, slow);
    expect(await imagine(deployment, queued)).toBeUndefined();

    await deployment.engines.redis.stop();
    for (const body of await untilEveryProcessAnswers(deployment, 503)) {
      expect(body).toMatch(/^redis: not reachable \(REDIS_URL\)/m);
    }
    expect(await imagine(deployment, 'a ship while Redis is away')).toBe(copy.queueUnavailable);

    await deployment.engines.redis.start();
    await untilEveryProcessAnswers(deployment, 200);
    const after = 'a bridge after Redis came back';
    expect(await imagine(deployment, after)).toBeUndefined();
    await expectAnsweredOnce(deployment, [slow, queued, after], 'a ship while Redis is away');
  }, 180_000);

  it('PostgreSQL restarting: refused in words while down, nothing accepted lost, work resumes', async () => {
    const deployment = await startDeployment();
    // Long enough for the database to be back before the service answers: an upload the database
    // cannot record while it is down is the one window the contract leaves.
    const slow = 'a lighthouse through the restart [fault:slow=15000]';
    expect(await imagine(deployment, slow)).toBeUndefined();
    await running(deployment, slow);
    // Taken by the worker while the database is down: it waits in Redis until it is back.
    const queued = 'a harbour queued before the restart';
    expect(await imagine(deployment, queued)).toBeUndefined();

    await deployment.engines.postgres.stop();
    for (const body of await untilEveryProcessAnswers(deployment, 503)) {
      expect(body, logs(deployment)).toMatch(/^database: .*DATABASE_URL/m);
    }
    expect(await imagine(deployment, 'a ship while the database is down')).toBe(copy.storeUnavailable);

    await deployment.engines.postgres.start();
    await untilEveryProcessAnswers(deployment, 200);
    const after = 'a bridge after the restart';
    expect(await imagine(deployment, after)).toBeUndefined();
    await expectAnsweredOnce(deployment, [slow, queued, after], 'a ship while the database is down');
  }, 180_000);
});
