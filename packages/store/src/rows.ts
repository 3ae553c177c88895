import {
  type CachedThreadMessage,
  type ImageVersion,
  type JobRecord,
  type JobStep,
  type JsonValue,
  type SettingChange,
  type UsageTotals,
  versionRef,
} from '@genbot/core/store';
import { z } from 'zod';

/**
 * Rows as the drivers return them -> the port's types, checked once here.
 * The two dialects differ only in representation (PostgreSQL: Date, bigint
 * sums as strings; SQLite: ISO text, numbers), never in meaning.
 */

const timestamp = z.union([z.date(), z.iso.datetime()]).transform((value) => new Date(value));
const optionalTimestamp = timestamp.nullable().transform((value) => value ?? undefined);
const optionalText = z
  .string()
  .nullable()
  .transform((value) => value ?? undefined);
/** '' stands for "none" in key columns. */
const workspace = z.string().transform((value) => (value === '' ? undefined : value));
const flag = z.union([z.literal(0), z.literal(1)]).transform((value) => value === 1);
const count = z.coerce.number().int().nonnegative();
const platform = z.enum(['slack', 'discord']);
/** Built once: `z.json()` makes a new recursive schema, compiled again on its first parse (3x the cost of a row). */
const json = z.json();
const jsonText = z.string().transform((text, context): JsonValue => {
  try {
    return json.parse(JSON.parse(text));
  } catch {
    context.addIssue({ code: 'custom', message: 'not JSON' });
    return z.NEVER;
  }
});

const stepSchema = z.object({
  name: z.string(),
  messageId: z.string().optional(),
  fileIds: z.array(z.string()).optional(),
  files: z.number().int().nonnegative().optional(),
  index: z.number().int().optional(),
  at: z.iso.datetime().transform((value) => new Date(value)),
});

/** Steps are JSON Lines: one object a line, appended in order. */
const stepsText = z.string().transform((text, context): JobStep[] => {
  const steps: JobStep[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      steps.push(stepSchema.parse(JSON.parse(line)));
    } catch {
      context.addIssue({ code: 'custom', message: `a step that does not parse: ${line.slice(0, 80)}` });
      return z.NEVER;
    }
  }
  return steps;
});

const jobRow = z.object({
  id: z.string(),
  kind: z.string(),
  schema_version: z.number().int(),
  platform,
  workspace_id: workspace,
  channel_id: z.string(),
  thread_id: optionalText,
  user_id: z.string(),
  input: jsonText.nullable(),
  interaction_token: z.string().nullable(),
  interaction_expires_at: timestamp.nullable(),
  state: z.enum(['queued', 'running', 'finished']),
  attempts: z.number().int().nonnegative(),
  outcome: z.enum(['done', 'rejected', 'failed', 'abandoned']).nullable(),
  outcome_detail: optionalText,
  steps: stepsText,
  created_at: timestamp,
  updated_at: timestamp,
  started_at: optionalTimestamp,
  finished_at: optionalTimestamp,
});

/** A job row; its interaction token only while it has not expired at `now`. */
export function parseJob(row: unknown, now: Date): JobRecord {
  const r = parseRow('jobs', jobRow, row);
  const interaction =
    r.interaction_token !== null && r.interaction_expires_at !== null && r.interaction_expires_at > now
      ? { token: r.interaction_token, expiresAt: r.interaction_expires_at }
      : undefined;
  return {
    id: r.id,
    kind: r.kind,
    schemaVersion: r.schema_version,
    platform: r.platform,
    workspaceId: r.workspace_id,
    channelId: r.channel_id,
    threadId: r.thread_id,
    userId: r.user_id,
    input: r.input,
    interaction,
    state: r.state,
    attempts: r.attempts,
    outcome: r.outcome ?? undefined,
    outcomeDetail: r.outcome_detail,
    steps: r.steps,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

const versionRow = z.object({
  job_id: z.string(),
  image_index: z.number().int().nonnegative(),
  platform,
  workspace_id: workspace,
  channel_id: z.string(),
  thread_id: optionalText,
  message_id: optionalText,
  file_id: optionalText,
  mime_type: z.string(),
  size_bytes: count,
  sha256: z.string(),
  parent_job_id: z.string().nullable(),
  parent_image_index: z.number().int().nonnegative().nullable(),
  prompt: z.string(),
  ref: z.string().nullable(),
  origin: z.enum(['generated', 'edited', 'varied', 'restored']),
  version_number: z.number().int().positive(),
  aspect_ratio: optionalText,
  created_at: timestamp,
});

export function parseVersion(row: unknown): ImageVersion {
  const r = parseRow('image_versions', versionRow, row);
  return {
    jobId: r.job_id,
    index: r.image_index,
    platform: r.platform,
    workspaceId: r.workspace_id,
    channelId: r.channel_id,
    threadId: r.thread_id,
    messageId: r.message_id,
    fileId: r.file_id,
    mimeType: r.mime_type,
    sizeBytes: r.size_bytes,
    sha256: r.sha256,
    parent:
      r.parent_job_id === null || r.parent_image_index === null
        ? undefined
        : { jobId: r.parent_job_id, index: r.parent_image_index },
    prompt: r.prompt,
    ref: r.ref ?? versionRef(r.job_id, r.image_index),
    origin: r.origin,
    number: r.version_number,
    aspectRatio: r.aspect_ratio,
    createdAt: r.created_at,
  };
}

const totalsRow = z.object({
  day_images: count,
  day_input_tokens: count,
  day_output_tokens: count,
  day_jobs: count,
  month_images: count,
  month_input_tokens: count,
  month_output_tokens: count,
  month_jobs: count,
});

export function parseTotals(row: unknown): { today: UsageTotals; month: UsageTotals } {
  const r = parseRow('usage_ledger', totalsRow, row);
  return {
    today: {
      images: r.day_images,
      inputTokens: r.day_input_tokens,
      outputTokens: r.day_output_tokens,
      jobs: r.day_jobs,
    },
    month: {
      images: r.month_images,
      inputTokens: r.month_input_tokens,
      outputTokens: r.month_output_tokens,
      jobs: r.month_jobs,
    },
  };
}

const settingRow = z.object({ level: z.enum(['workspace', 'channel', 'user']), value: jsonText });

export function parseSetting(row: unknown): z.output<typeof settingRow> {
  return parseRow('settings', settingRow, row);
}

const namedSettingRow = settingRow.extend({ name: z.string() });

export function parseNamedSetting(row: unknown): z.output<typeof namedSettingRow> {
  return parseRow('settings', namedSettingRow, row);
}

const optionalJsonText = jsonText.nullable().transform((value) => (value === null ? undefined : value));

const settingChangeRow = z
  .object({
    platform,
    workspace_id: workspace,
    level: z.enum(['workspace', 'channel']),
    target_id: z.string(),
    name: z.string(),
    previous: optionalJsonText,
    value: optionalJsonText,
    changed_by: z.string(),
    changed_at: timestamp,
  })
  .transform(
    (row): SettingChange => ({
      scope:
        row.level === 'channel'
          ? { level: 'channel', platform: row.platform, workspaceId: row.workspace_id, channelId: row.target_id }
          : { level: 'workspace', platform: row.platform, workspaceId: row.workspace_id },
      name: row.name,
      previous: row.previous,
      value: row.value,
      by: row.changed_by,
      at: row.changed_at,
    }),
  );

export function parseSettingChange(row: unknown): SettingChange {
  return parseRow('setting_changes', settingChangeRow, row);
}

const attachmentsText = jsonText.pipe(
  z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      mimeType: z.string().optional(),
      size: z.number().nonnegative().optional(),
    }),
  ),
);

const threadMessageRow = z.object({
  platform,
  channel_id: z.string(),
  message_id: z.string(),
  workspace_id: workspace,
  thread_id: z.string(),
  author_id: z.string(),
  author_name: z.string(),
  author_is_bot: flag,
  author_is_self: flag,
  text: z.string(),
  attachments: attachmentsText,
  posted_at: timestamp,
  live_run: z.string().nullable(),
});

export function parseThreadMessage(row: unknown): CachedThreadMessage {
  const r = parseRow('thread_messages', threadMessageRow, row);
  return {
    platform: r.platform,
    workspaceId: r.workspace_id,
    channelId: r.channel_id,
    threadId: r.thread_id,
    id: r.message_id,
    author: { id: r.author_id, name: r.author_name, isBot: r.author_is_bot, isSelf: r.author_is_self },
    text: r.text,
    attachments: r.attachments,
    postedAt: r.posted_at,
    ...(r.live_run === null ? {} : { liveRun: r.live_run }),
  };
}

/** A row that does not fit is a damaged database or a schema this code does not know: say which table. */
function parseRow<T extends z.ZodType>(table: string, schema: T, row: unknown): z.output<T> {
  const result = schema.safeParse(row);
  if (result.success) return result.data;
  throw new Error(`a row of ${table} does not fit the schema: ${z.prettifyError(result.error)}`);
}
