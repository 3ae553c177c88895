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

/** A daily image limit a reservation stays within: everything `scope` used today, counted with it. */
export interface DailyImageLimit {
  scope: UsageScope;
  images: number;
}

/** Whose job reserves: the job's own entry holds what it reserved until its usage is recorded. */
export type ReservationHolder = Pick<UsageEntry, 'jobId' | 'platform' | 'workspaceId' | 'userId'>;

export interface UsageLedger {
  /** One entry per job: recording a job again replaces its entry, keeping when it was first recorded. */
  record(entry: UsageEntry): Promise<void>;

  /**
   * Adds `images` to the job's entry (creating it) only when no limit is
   * passed counting them, in one step that every process sharing the store
   * sees whole: two jobs racing for the last image of a quota cannot both
   * get it. True when reserved. The job's recorded usage later replaces the
   * entry with what was really made.
   */
  reserveImages(holder: ReservationHolder, images: number, limits: readonly DailyImageLimit[]): Promise<boolean>;

  /** Gives back images a job reserved and did not make (never below zero). */
  releaseImages(jobId: string, images: number): Promise<void>;

  /** Sums for the current UTC day and UTC calendar month. */
  totals(scope: UsageScope): Promise<{ today: UsageTotals; month: UsageTotals }>;
}
