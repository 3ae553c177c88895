import type { ImageVersionStore } from './image-version-store.js';
import type { InstallationStore } from './installation-store.js';
import type { JobStore } from './job-store.js';
import type { SettingsStore } from './settings-store.js';
import type { ThreadCacheStore } from './thread-cache-store.js';
import type { UsageLedger } from './usage-ledger.js';

/** What one retention sweep removed. */
export interface SweepResult {
  /** Jobs created before the cutoff whose input was deleted (the rest of the row stays). */
  jobInputsDeleted: number;
  imageVersionsDeleted: number;
  threadMessagesDeleted: number;
  /** Discord interaction tokens past their expiry. */
  interactionTokensDeleted: number;
}

/**
 * Everything genbot keeps between requests and across restarts. Each part is
 * its own port so a use case asks only for what it reads; one database holds
 * them all. Methods reject with `StoreUnavailableError` when the database
 * cannot be reached or written.
 */
export interface Store {
  readonly jobs: JobStore;
  readonly versions: ImageVersionStore;
  readonly usage: UsageLedger;
  readonly settings: SettingsStore;
  readonly threads: ThreadCacheStore;
  /** Slack installations, with many-workspace mode. */
  readonly installations: InstallationStore;

  /**
   * Deletes job inputs, image versions and cached thread messages older than
   * `olderThanDays`, and interaction tokens past their expiry. The usage
   * ledger stays: it holds counts, not content.
   */
  sweep(options: { olderThanDays: number }): Promise<SweepResult>;

  /** Resolves when the database answers (for `/readyz`). */
  ping(): Promise<void>;

  close(): Promise<void>;
}
