import { describe, expect, it } from 'vitest';
import { InProcessJobQueue } from './in-process-queue.js';
import type { JobDelivery, QueuedJob } from './job-queue.js';

const job = (id: string, lane: QueuedJob['lane'] = 'image', platform = 'slack'): QueuedJob => ({
  id,
  lane,
  platform,
  userId: 'U1',
});

function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

describe('InProcessJobQueue', () => {
  it('runs jobs in order within each lane’s concurrency, and says how many are ahead', async () => {
    const queue = new InProcessJobQueue();
    const started: string[] = [];
    const release = gate();
    queue.process(
      async ({ job: { id } }: JobDelivery) => {
        started.push(id);
        await release.wait;
      },
      { concurrency: { image: 1, stream: 1 }, platforms: ['slack'] },
    );
    for (const id of ['a', 'b', 'c']) await queue.add(job(id));
    await queue.add(job('s', 'stream'));
    expect(started).toEqual(['a', 's']);
    expect(await queue.position('a')).toBe(0);
    expect(await queue.position('b')).toBe(1);
    expect(await queue.position('c')).toBe(2);
    expect(await queue.position('unknown')).toBeUndefined();
    release.open();
    await queue.idle();
    expect(started).toEqual(['a', 's', 'b', 'c']);
    expect(await queue.position('a')).toBeUndefined();
  });

  it('adds a job waiting or running once however often it is added', async () => {
    const queue = new InProcessJobQueue();
    const runs: string[] = [];
    const release = gate();
    queue.process(
      async ({ job: { id } }) => {
        runs.push(id);
        await release.wait;
      },
      { concurrency: { image: 1, stream: 1 }, platforms: ['slack'] },
    );
    await queue.add(job('a'));
    await queue.add(job('b'));
    await queue.add(job('a'));
    await queue.add(job('b'));
    release.open();
    await queue.idle();
    expect(runs).toEqual(['a', 'b']);
  });

  it('leaves other platforms’ jobs alone, reports a rejecting handler and hands nothing out once closed', async () => {
    const failures: string[] = [];
    const queue = new InProcessJobQueue({ onHandlerError: (failed) => failures.push(failed.id) });
    const runs: string[] = [];
    queue.process(
      async ({ job: { id } }) => {
        runs.push(id);
        if (id === 'bad') throw new Error('boom');
      },
      { concurrency: { image: 2, stream: 2 }, platforms: ['slack'] },
    );
    await queue.add(job('d', 'image', 'discord'));
    await queue.add(job('bad'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toEqual(['bad']);
    expect(failures).toEqual(['bad']);
    expect(await queue.position('d')).toBe(1);
    await queue.close();
    await queue.add(job('late'));
    expect(runs).toEqual(['bad']);
  });
});
