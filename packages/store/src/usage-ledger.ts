import type { UsageEntry, UsageLedger, UsageScope } from '@genbot/core/store';
import { sql } from 'kysely';
import { parseTotals } from './rows.js';
import { iso, type StoreContext } from './store-context.js';

export function createUsageLedger({ db, now }: StoreContext): UsageLedger {
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

    async totals(scope: UsageScope) {
      const at = now();
      const dayStart = iso(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())));
      const monthStart = iso(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)));
      const monthEnd = iso(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)));
      const today = sql<boolean>`recorded_at >= ${dayStart}`;
      let query = db
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
        .where('platform', '=', scope.platform)
        .where('workspace_id', '=', scope.workspaceId ?? '')
        .where('recorded_at', '>=', monthStart)
        .where('recorded_at', '<', monthEnd);
      if (scope.userId !== undefined) query = query.where('user_id', '=', scope.userId);
      return parseTotals(await query.executeTakeFirstOrThrow());
    },
  };
}
