import type { JobOutcome, JobRecord, JobStore, NewJob, NewJobStep, Platform, RecordedJob } from '@genbot/core/store';
import { sql } from 'kysely';
import { parseJob } from './rows.js';
import { iso, type StoreContext } from './store-context.js';

export function createJobStore({ db, now }: StoreContext): JobStore {
  const get = async (id: string): Promise<JobRecord | undefined> => {
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : parseJob(row, now());
  };

  const record = async (job: NewJob, retry: boolean): Promise<RecordedJob> => {
    const at = iso(now());
    const result = await db
      .insertInto('jobs')
      .values({
        id: job.id,
        kind: job.kind,
        schema_version: job.schemaVersion,
        platform: job.platform,
        workspace_id: job.workspaceId ?? '',
        channel_id: job.channelId,
        thread_id: job.threadId ?? null,
        user_id: job.userId,
        input: JSON.stringify(job.input),
        interaction_token: job.interaction?.token ?? null,
        interaction_expires_at: job.interaction === undefined ? null : iso(job.interaction.expiresAt),
        state: 'queued',
        attempts: 0,
        steps: '',
        created_at: at,
        updated_at: at,
        active_key: job.activeKey ?? null,
      })
      // No conflict target: a repeated id and an active key held by another job are both "not created".
      .onConflict((conflict) => conflict.doNothing())
      // The row as stored comes back with the insert: a new job costs one round trip, not two.
      .returningAll()
      .executeTakeFirst();
    if (result !== undefined) return { job: parseJob(result, now()), created: true };
    const stored = await get(job.id);
    if (stored !== undefined) return { job: stored, created: false };
    if (job.activeKey !== undefined) {
      const holder = await db.selectFrom('jobs').selectAll().where('active_key', '=', job.activeKey).executeTakeFirst();
      if (holder !== undefined) return { job: parseJob(holder, now()), created: false };
      // The holder finished in between: the key is free again.
      if (retry) return record(job, false);
    }
    throw new Error(`job ${job.id} was recorded but cannot be read back`);
  };

  return {
    get,

    record: (job: NewJob): Promise<RecordedJob> => record(job, true),

    async claim(id: string): Promise<JobRecord | undefined> {
      const at = iso(now());
      const row = await db
        .updateTable('jobs')
        .set((eb) => ({
          state: 'running',
          attempts: eb('attempts', '+', 1),
          started_at: sql<string>`coalesce(started_at, ${at})`,
          updated_at: at,
        }))
        .where('id', '=', id)
        .where('state', '<>', 'finished')
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : parseJob(row, now());
    },

    async recordStep(id: string, step: NewJobStep, options: { onlyQueued?: boolean } = {}): Promise<boolean> {
      const at = now();
      const line = `${JSON.stringify({ ...step, at: iso(at) })}\n`;
      const result = await db
        .updateTable('jobs')
        .set({ steps: sql<string>`steps || ${line}`, updated_at: iso(at) })
        .where('id', '=', id)
        .where('state', options.onlyQueued === true ? '=' : '<>', options.onlyQueued === true ? 'queued' : 'finished')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async finish(
      id: string,
      outcome: JobOutcome,
      detail?: string,
      options: { onlyQueued?: boolean } = {},
    ): Promise<boolean> {
      const at = iso(now());
      const result = await db
        .updateTable('jobs')
        .set({
          state: 'finished',
          outcome,
          outcome_detail: detail ?? null,
          finished_at: at,
          updated_at: at,
          interaction_token: null,
          interaction_expires_at: null,
          active_key: null,
        })
        .where('id', '=', id)
        .where('state', options.onlyQueued === true ? '=' : '<>', options.onlyQueued === true ? 'queued' : 'finished')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async unfinished(platforms: readonly Platform[]): Promise<JobRecord[]> {
      if (platforms.length === 0) return [];
      const rows = await db
        .selectFrom('jobs')
        .selectAll()
        .where('state', 'in', ['queued', 'running'])
        .where('platform', 'in', platforms)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const at = now();
      return rows.map((row) => parseJob(row, at));
    },
  };
}
