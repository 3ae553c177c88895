import { join } from 'node:path';
import { copy } from '@genbot/core/copy';
import { findPostgresBin, runToCompletion } from '@genbot/test-servers';
import { enginesInstalled } from '@genbot/test-servers/genbot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobFinished } from '../support/job-finished.js';
import { type Deployment, startDeployment } from './deployment.js';

/**
 * A worker starting while another runs a job older than the resume age, then that
 * other worker killed with SIGKILL: the newcomer leaves the job to its holder, takes
 * it over once the holder's lock lapses, and it ends once, in the message it had.
 */

const installed = enginesInstalled();
const JOB_LOCK_MS = 3_000;

let deployment: Deployment;

/** Moves a job's creation back by `minutes`, as if it had waited that long (psql, beside the server). */
async function backdate(id: string, minutes: number): Promise<void> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('PostgreSQL is not installed');
  const at = new Date(Date.now() - minutes * 60_000).toISOString();
  await runToCompletion('psql', join(bin, 'psql'), [
    deployment.engines.postgres.url,
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    `UPDATE jobs SET created_at = '${at}' WHERE id = '${id}'`,
  ]);
}

describe.runIf(installed)('a worker starting beside a long job, then its holder killed', () => {
  beforeAll(async () => {
    deployment = await startDeployment({ name: 'takeover', workerEnv: { JOB_LOCK_MS: String(JOB_LOCK_MS) } });
    await Promise.all([deployment.start('slack-1'), deployment.start('worker-1')]);
    deployment.slack.deliverTo(deployment.engines.requestUrl);
  }, 120_000);

  afterAll(async () => {
    await deployment?.close();
  }, 60_000);

  it('leaves a job past the resume age to the worker running it, then resumes it once after SIGKILL', async () => {
    const { slack, store, running } = deployment;
    const channel = 'C-takeover';
    const bot = slack.identity.botUserId;
    const mention = await slack.userSays({
      user: 'U1',
      channel,
      text: `<@${bot}> tell me a long story [len:2500] [delay:300]`,
    });
    const eventId = mention.deliveries.find((delivery) => delivery.eventType === 'app_mention')?.eventId;
    const jobId = `slack-ev-${eventId}`;
    const threadTs = mention.threadTs ?? mention.ts;
    const replies = () => slack.workspace.botMessages(bot, { channel, threadTs });
    await slack.waitFor(() => (replies()[0]?.edits.length ?? 0) > 0, { timeoutMs: 30_000 });
    // Past the 15 minutes after which a job the queue lost is told to ask again.
    await backdate(jobId, 20);

    const newcomer = await deployment.start('worker-2', { LOG_LEVEL: 'info' });
    // The story outlasts a worker's start-up, even on a loaded machine: the newcomer finds it running.
    expect(await store.jobs.get(jobId)).toMatchObject({ state: 'running' });
    await vi.waitFor(() => expect(newcomer.stderr()).toMatch(/"held":1.*unfinished jobs picked up after a restart/), {
      timeout: 30_000,
      interval: 100,
    });
    expect(await store.jobs.get(jobId)).toMatchObject({ state: 'running', attempts: 1 });

    const holder = running.get('worker-1');
    holder?.child.kill('SIGKILL');
    expect((await holder?.exited)?.signal).toBe('SIGKILL');
    running.delete('worker-1');

    const job = await jobFinished(store, jobId, 60_000);
    expect(job).toMatchObject({ outcome: 'done', attempts: 2 });
    expect(job.steps.filter((step) => step.name === 'posted')).toHaveLength(1);
    const [reply, ...more] = replies();
    expect(more).toEqual([]);
    expect(reply?.text).toMatch(/^You said/);
    expect(reply?.text.length).toBeGreaterThan(2_000);
    expect(slack.workspace.messages.filter((m) => m.text.includes(copy.restartedTooLate('').slice(0, 12)))).toEqual([]);
  }, 180_000);
});
