export type { JsonValue } from './json.js';
export type { Platform, StoredPlace } from './where.js';
export type {
  InteractionToken,
  JobOutcome,
  JobRecord,
  JobState,
  JobStep,
  JobStore,
  NewJob,
  NewJobStep,
  RecordedJob,
} from './job-store.js';
export type {
  ImageVersion,
  ImageVersionKey,
  ImageVersionStore,
  NewImageVersion,
  VersionOrigin,
} from './image-version-store.js';
export { isPosted } from './image-version-store.js';
export { versionRef } from './version-ref.js';
export type {
  DailyImageLimit,
  ReservationHolder,
  UsageEntry,
  UsageLedger,
  UsageScope,
  UsageTotals,
} from './usage-ledger.js';
export type {
  ScopedValues,
  SettingChange,
  SettingPlace,
  SettingScope,
  SettingsStore,
} from './settings-store.js';
export type { CachedThreadMessage, ThreadCacheStore, ThreadCoverage } from './thread-cache-store.js';
export type { InstallationStore, NewInstallation, StoredInstallation } from './installation-store.js';
export type { Store, SweepResult } from './store.js';
export { StoreUnavailableError } from './store-unavailable-error.js';
