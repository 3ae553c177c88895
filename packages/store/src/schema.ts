import type { ColumnType } from 'kysely';

/**
 * The tables as Kysely sees them, one schema for both dialects. Timestamps are
 * `timestamptz` (PostgreSQL returns Date; SQLite keeps the ISO-8601 text we
 * write, which sorts as time does); JSON is text; flags are 0/1 integers.
 * Rows read back are parsed in rows.ts, never trusted as typed here.
 */
type Timestamp = ColumnType<Date | string, string, string>;
type OptionalTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;

export interface JobsTable {
  id: string;
  kind: string;
  schema_version: number;
  platform: string;
  /** '' when there is none (a Discord DM), so keys and equality work alike in both dialects. */
  workspace_id: string;
  channel_id: string;
  thread_id: string | null;
  user_id: string;
  /** JSON; null once the retention sweep removed it. */
  input: string | null;
  interaction_token: string | null;
  interaction_expires_at: OptionalTimestamp;
  state: string;
  attempts: number;
  outcome: string | null;
  outcome_detail: string | null;
  /** JSON Lines, one step a line, so appending is one `||` in either dialect. */
  steps: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: OptionalTimestamp;
  finished_at: OptionalTimestamp;
  /** Held by one unfinished job at most (unique); cleared when it finishes. */
  active_key: string | null;
}

export interface ImageVersionsTable {
  job_id: string;
  image_index: number;
  platform: string;
  workspace_id: string;
  channel_id: string;
  thread_id: string | null;
  message_id: string | null;
  file_id: string | null;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  parent_job_id: string | null;
  parent_image_index: number | null;
  prompt: string;
  /** versionRef(job_id, image_index): what buttons carry. */
  ref: string | null;
  /** generated | edited | varied | restored */
  origin: string;
  version_number: number;
  /** The ref of the tree's first version: numbers count up per tree. */
  tree_ref: string | null;
  aspect_ratio: string | null;
  created_at: Timestamp;
}

export interface UsageLedgerTable {
  job_id: string;
  platform: string;
  workspace_id: string;
  user_id: string;
  images: number;
  input_tokens: number;
  output_tokens: number;
  tokens_estimated: number;
  recorded_at: Timestamp;
}

export interface SettingChangesTable {
  id: string;
  platform: string;
  workspace_id: string;
  level: string;
  target_id: string;
  name: string;
  /** JSON; null: the setting had no value */
  previous: string | null;
  /** JSON; null: a reset */
  value: string | null;
  changed_by: string;
  changed_at: Timestamp;
}

export interface SettingsTable {
  platform: string;
  workspace_id: string;
  /** workspace | channel | user */
  level: string;
  /** The channel or user id; '' at workspace level. */
  target_id: string;
  name: string;
  /** JSON */
  value: string;
  updated_at: Timestamp;
}

export interface ThreadMessagesTable {
  platform: string;
  channel_id: string;
  message_id: string;
  workspace_id: string;
  thread_id: string;
  author_id: string;
  author_name: string;
  author_is_bot: number;
  author_is_self: number;
  text: string;
  /** JSON array of attachments as the platform declared them. */
  attachments: string;
  posted_at: Timestamp;
  /** The run of the bot that saw the message arrive as an event; null when read from history. */
  live_run: string | null;
  /** On a thread's first message: the run in which the cache held the thread whole, and through which message. */
  whole_run: string | null;
  whole_through: string | null;
}

export interface InstallationsTable {
  /** The enterprise ID for an org-wide install, else the team ID. */
  key: string;
  enterprise_id: string | null;
  team_id: string | null;
  /** The installation, encrypted by the app: no token is ever in the clear here. */
  sealed: string;
  installed_at: Timestamp;
  updated_at: Timestamp;
  /** Who refreshes the token now, and until when (see InstallationStore.lease). */
  lease_holder: string | null;
  lease_until: OptionalTimestamp;
}

/** A workspace met under an org-wide installation: its jobs find their token through it. */
export interface InstallationTeamsTable {
  team_id: string;
  installation_key: string;
}

export interface OauthStatesTable {
  state: string;
  payload: string;
  expires_at: Timestamp;
}

export interface Database {
  jobs: JobsTable;
  image_versions: ImageVersionsTable;
  usage_ledger: UsageLedgerTable;
  settings: SettingsTable;
  setting_changes: SettingChangesTable;
  thread_messages: ThreadMessagesTable;
  installations: InstallationsTable;
  installation_teams: InstallationTeamsTable;
  oauth_states: OauthStatesTable;
}
