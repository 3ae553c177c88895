import type { QuotaConfig } from '../config/load-config.js';
import type { Platform, UsageLedger, UsageTotals } from '../store/index.js';

export type QuotaName = 'images' | 'chat tokens';

/** Whose quota: one user of one workspace (absent in a Discord DM). */
export interface QuotaHolder {
  platform: Platform;
  workspaceId?: string | undefined;
  userId: string;
}

export interface QuotaLine {
  quota: QuotaName;
  limit: number;
  used: number;
  left: number;
}

export interface QuotaStatus {
  today: UsageTotals;
  month: UsageTotals;
  /** One line per daily quota that is set. */
  lines: QuotaLine[];
}

/** Below this share of a quota left, a queued job's progress message says what is left. */
const CLOSE_TO_LIMIT = 0.2;

export function secondsToUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.round((midnight - now.getTime()) / 1000));
}

function line(quota: QuotaName, limit: number | undefined, used: number): QuotaLine | undefined {
  return limit === undefined ? undefined : { quota, limit, used, left: Math.max(0, limit - used) };
}

/** Whether `name` has a daily limit at all: without one, nothing needs the user's totals to admit a job. */
export function limited(quota: QuotaConfig, name: QuotaName): boolean {
  return (name === 'images' ? quota.imagesPerDay : quota.chatTokensPerDay) !== undefined;
}

/** Today's and this month's totals of a user, and where each daily quota stands (UTC day). */
export async function quotaStatus(usage: UsageLedger, holder: QuotaHolder, quota: QuotaConfig): Promise<QuotaStatus> {
  const { today, month } = await usage.totals(holder);
  const lines = [
    line('images', quota.imagesPerDay, today.images),
    line('chat tokens', quota.chatTokensPerDay, today.inputTokens + today.outputTokens),
  ].filter((entry) => entry !== undefined);
  return { today, month, lines };
}

/** The quotas that are used up. */
export function exhausted(status: QuotaStatus, quota: QuotaName): QuotaLine | undefined {
  return status.lines.find((entry) => entry.quota === quota && entry.left <= 0);
}

/** The quotas with little left (and not none), for the progress message. */
export function closeToLimit(status: QuotaStatus): QuotaLine[] {
  return status.lines.filter((entry) => entry.left > 0 && entry.left <= entry.limit * CLOSE_TO_LIMIT);
}
