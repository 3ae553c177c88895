import type { Platform } from './where.js';

/** What one job used, as the service reported it. */
export interface UsageEntry {
  jobId: string;
  platform: Platform;
  /** Absent in a Discord DM. */
  workspaceId?: string | undefined;
  userId: string;
  images: number;
  inputTokens: number;
  outputTokens: number;
  /** The service reported no token counts; these are estimated from the text. */
  tokensEstimated: boolean;
}

export interface UsageTotals {
  images: number;
  inputTokens: number;
  outputTokens: number;
  jobs: number;
}

/** Whose usage to add up: one user in a workspace, or the whole workspace when `userId` is absent. */
export interface UsageScope {
  platform: Platform;
  workspaceId?: string | undefined;
  userId?: string | undefined;
}

export interface UsageLedger {
  /** One entry per job: recording a job again replaces its entry, keeping when it was first recorded. */
  record(entry: UsageEntry): Promise<void>;

  /** Sums for the current UTC day and UTC calendar month. */
  totals(scope: UsageScope): Promise<{ today: UsageTotals; month: UsageTotals }>;
}
