import type { Logger } from 'pino';
import type { Dispatcher } from './dispatcher.js';
import type { GuildState } from './guild-state.js';
import type { RateLimits } from './rate-limits.js';
import type { SnowflakeGenerator } from './snowflake.js';
import type { CountedFault, RedirectFault, TransferFaults } from '../transfer-faults.js';
import type { DownloadFault, SlowCallback, TransferFault } from './transfer-faults.js';

/** What the REST handlers and the driver share. */
export interface FakeContext {
  readonly state: GuildState;
  readonly events: Dispatcher;
  readonly rateLimits: RateLimits;
  /** Switched on by tests: CDN downloads answering an error status. */
  readonly downloadFaults: TransferFaults<DownloadFault>;
  /** Switched on by tests: downloads of one attachment answering an error status, by attachment ID. */
  readonly attachmentFaults: Map<string, TransferFaults<DownloadFault>>;
  /** Switched on by tests: CDN downloads answering a redirect. */
  readonly downloadRedirects: TransferFaults<RedirectFault>;
  /** Switched on by tests: requests carrying files refused with 413 (40005). */
  readonly uploadFaults: TransferFaults<TransferFault>;
  /** Switched on by tests: interaction callbacks taken as arriving after Discord's 3 s (10062). */
  readonly lateCallbacks: TransferFaults<CountedFault>;
  /** Switched on by tests: interaction callbacks that take effect only after a delay. */
  readonly slowCallbacks: TransferFaults<SlowCallback>;
  readonly ids: SnowflakeGenerator;
  /** `http://127.0.0.1:PORT`, the origin of attachment URLs. */
  readonly origin: string;
  readonly botToken: string;
  readonly applicationId: string;
  readonly attachmentSizeLimit: number;
  /** How long an interaction may wait for its first callback (Discord: 3 s). */
  readonly interactionDeadlineMs: number;
  /** How long an interaction token accepts webhook calls (Discord: 15 min). */
  readonly interactionTokenTtlMs: number;
  readonly logger: Logger;
  readonly now: () => number;
}
