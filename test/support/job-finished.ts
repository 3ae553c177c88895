import type { JobRecord, Store } from '@genbot/core/store';
import { eventually } from '@genbot/test-servers';

/** Job `id` once `store` has it finished (read as an operator would, from the shared store). */
export function jobFinished(store: Pick<Store, 'jobs'>, id: string, timeoutMs = 30_000): Promise<JobRecord> {
  let job: JobRecord | undefined;
  return eventually(
    async () => {
      job = await store.jobs.get(id);
      return job?.state === 'finished' && job;
    },
    { timeoutMs, what: () => `job ${id} finished (last seen: ${JSON.stringify(job)})` },
  );
}
