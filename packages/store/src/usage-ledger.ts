import { createHash } from 'node:crypto';
import type { DailyImageLimit, ReservationHolder, UsageEntry, UsageLedger, UsageScope } from '@genbot/core/store';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { parseTotals } from './rows.js';
import type { Database } from './schema.js';
import { iso, type StoreContext } from './store-context.js';

/** An arbitrary tag ('gbrv'): the first of two lock keys, keeping these advisory locks apart from any other. */
const RESERVATION_LOCKS = 0x67_62_72_76;

export function createUsageLedger({ db, dialect, now }: StoreContext): UsageLedger {
  const serialized = dialect === 'sqlite' ? asOneStatement : inWorkspaceLockedTransaction;
  return {
    async record(entry: UsageEntry): Promise<void> {
      const counts = {
        images: entry.images,
        input_tokens: entry.inputTokens,
        output_tokens: entry.outputTokens,
        tokens_estimated: entry.tokensEstimated ? 1 : 0,
      };
      await db
        .insertInto('usage_ledger')
        .values({
          job_id: entry.jobId,
          platform: entry.platform,
          workspace_id: entry.workspaceId ?? '',
          user_id: entry.userId,
          ...counts,
          recorded_at: iso(now()),
        })
        .onConflict((conflict) => conflict.column('job_id').doUpdateSet(counts))
        .execute();
    },

    async reserveImages(
      holder: ReservationHolder,
      images: number,
      limits: readonly DailyImageLimit[],
    ): Promise<boolean> {
      const at = now();
      const dayStart = iso(utcDayStart(at));
      const workspaces = [holder, ...limits.map((limit) => limit.scope)];
      return serialized(db, workspaces, async (executor) => {
        const usedToday = (scope: UsageScope) =>
          executor
            .selectFrom('usage_ledger')
            .select(sql<number>`coalesce(sum(images), 0)`.as('used'))
            .where(inScope(scope))
            .where('recorded_at', '>=', dayStart);
        // The check and the write in one statement: SQLite takes its write lock before the statement reads.
        const result = await executor
          .insertInto('usage_ledger')
          .columns([
            'job_id',
            'platform',
            'workspace_id',
            'user_id',
            'images',
            'input_tokens',
            'output_tokens',
            'tokens_estimated',
            'recorded_at',
          ])
          .expression(
            executor
              .selectNoFrom((eb) => [
                eb.val(holder.jobId).as('job_id'),
                eb.val(holder.platform).as('platform'),
                eb.val(holder.workspaceId ?? '').as('workspace_id'),
                eb.val(holder.userId).as('user_id'),
                eb.val(images).as('images'),
                eb.lit(0).as('input_tokens'),
                eb.lit(0).as('output_tokens'),
                eb.lit(0).as('tokens_estimated'),
                eb.val(iso(at)).as('recorded_at'),
              ])
              // SQLite needs the WHERE even when there is no limit: without it, ON CONFLICT would parse as a join's.
              .where((eb) =>
                eb.and(limits.map((limit) => sql<boolean>`${usedToday(limit.scope)} + ${images} <= ${limit.images}`)),
              ),
          )
          .onConflict((conflict) =>
            conflict
              .column('job_id')
              .doUpdateSet((eb) => ({ images: eb('usage_ledger.images', '+', eb.ref('excluded.images')) })),
          )
          .executeTakeFirstOrThrow();
        return result.numInsertedOrUpdatedRows === 1n;
      });
    },

    async releaseImages(jobId: string, images: number): Promise<void> {
      await db
        .updateTable('usage_ledger')
        .set({ images: sql<number>`case when images > ${images} then images - ${images} else 0 end` })
        .where('job_id', '=', jobId)
        .execute();
    },

    async totals(scope: UsageScope) {
      const at = now();
      const dayStart = iso(utcDayStart(at));
      const monthStart = iso(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)));
      const monthEnd = iso(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)));
      const today = sql<boolean>`recorded_at >= ${dayStart}`;
      return parseTotals(
        await db
          .selectFrom('usage_ledger')
          .select([
            sql<number>`coalesce(sum(case when ${today} then images else 0 end), 0)`.as('day_images'),
            sql<number>`coalesce(sum(case when ${today} then input_tokens else 0 end), 0)`.as('day_input_tokens'),
            sql<number>`coalesce(sum(case when ${today} then output_tokens else 0 end), 0)`.as('day_output_tokens'),
            sql<number>`coalesce(sum(case when ${today} then 1 else 0 end), 0)`.as('day_jobs'),
            sql<number>`coalesce(sum(images), 0)`.as('month_images'),
            sql<number>`coalesce(sum(input_tokens), 0)`.as('month_input_tokens'),
            sql<number>`coalesce(sum(output_tokens), 0)`.as('month_output_tokens'),
            sql<number>`count(*)`.as('month_jobs'),
          ])
          .where(inScope(scope))
          .where('recorded_at', '>=', monthStart)
          .where('recorded_at', '<', monthEnd)
          .executeTakeFirstOrThrow(),
      );
    },
  };
}

const utcDayStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** A user in a workspace, or the whole workspace; '' is the workspace of a DM. */
const inScope = (scope: UsageScope) => (eb: ExpressionBuilder<Database, 'usage_ledger'>) =>
  eb.and([
    eb('platform', '=', scope.platform),
    eb('workspace_id', '=', scope.workspaceId ?? ''),
    ...(scope.userId === undefined ? [] : [eb('user_id', '=', scope.userId)]),
  ]);

type Serialized = <T>(
  db: Kysely<Database>,
  workspaces: readonly Pick<UsageScope, 'platform' | 'workspaceId'>[],
  step: (executor: Kysely<Database>) => Promise<T>,
) => Promise<T>;

/**
 * SQLite has one writer per file, and a writing statement takes the write
 * lock before it reads (waiting up to the busy timeout for another process):
 * one statement is already whole for every process. Holding no lock across
 * an await also keeps two stores of one process on one file from waiting on
 * each other with the event loop blocked.
 */
const asOneStatement: Serialized = (db, _workspaces, step) => step(db);

/**
 * PostgreSQL reads committed rows, so two statements could each check
 * before the other wrote. Every scope lies within one workspace, and a
 * reservation writes into its holder's workspace and reads its limits'
 * workspaces: locking each of those serialises any two reservations that
 * could see each other's images, while other workspaces go on at once. The
 * locks are taken in the order of their keys so two transactions never wait
 * on each other; a hash collision only makes two workspaces share a lock. The
 * statement after the locks sees what the previous holder committed.
 */
const inWorkspaceLockedTransaction: Serialized = (db, workspaces, step) =>
  db.transaction().execute(async (trx) => {
    const keys = new Set(workspaces.map((workspace) => workspaceLockKey(workspace)));
    for (const key of [...keys].sort((a, b) => a - b)) {
      await sql`select pg_advisory_xact_lock(${RESERVATION_LOCKS}, ${key})`.execute(trx);
    }
    return step(trx);
  });

function workspaceLockKey({ platform, workspaceId }: Pick<UsageScope, 'platform' | 'workspaceId'>): number {
  return createHash('sha256')
    .update(JSON.stringify([platform, workspaceId ?? '']))
    .digest()
    .readInt32BE(0);
}
