/**
 * Issue 14: what the store costs a job. Per job, the writes a worker makes
 * for an /imagine (record, claim, two steps, an image version, its usage,
 * finish: 8 statements) and the reads around it (the job, the versions a
 * message shows, today's and this month's usage: 3 statements), one job at a
 * time, on SQLite (a file, WAL, synchronous NORMAL) and on PostgreSQL (a
 * local server with fsync on, as in production). The baseline sends the same
 * SQL through the bare driver (better-sqlite3 with cached prepared
 * statements; pg with plain parameterised queries): what remains is Kysely,
 * zod and our error translation.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@genbot/core/store';
import { openStore } from '@genbot/store';
import { findPostgresBin, POSTGRES_INSTALL_HINT, startPostgres } from '@genbot/test-servers';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { interleavedRounds } from './rounds.js';
import { percentile } from './stats.js';
import { boundedRow, type Benchmark, type Row } from './suite.js';

const ROUNDS = 4;
const JOBS_PER_ROUND = 150;
const WARMUP_JOBS = 50;
/** The issue's bound for what the store adds to a job on SQLite. */
const SQLITE_TARGET_P50_MS = 5;

interface Workload {
  writeJob(id: string): Promise<void>;
  readJob(id: string): Promise<void>;
  close(): Promise<void>;
}

interface Timings {
  writeMs: number[];
  readMs: number[];
}

const INPUT = { prompt: 'a lighthouse at dawn', aspectRatio: '16:9' };

function storeWorkload(store: Store): Workload {
  return {
    async writeJob(id) {
      await store.jobs.record({
        id,
        kind: 'imagine',
        schemaVersion: 1,
        platform: 'slack',
        workspaceId: 'T1',
        channelId: 'C1',
        userId: 'U1',
        input: INPUT,
      });
      await store.jobs.claim(id);
      await store.jobs.recordStep(id, { name: 'progress-posted', messageId: `${id}.progress` });
      await store.jobs.recordStep(id, { name: 'files-uploaded', fileIds: [`F-${id}`], messageId: `${id}.result` });
      await store.versions.record({
        jobId: id,
        index: 0,
        platform: 'slack',
        workspaceId: 'T1',
        channelId: 'C1',
        messageId: `${id}.result`,
        fileId: `F-${id}`,
        mimeType: 'image/png',
        sizeBytes: 1_234_567,
        sha256: 'a'.repeat(64),
        prompt: 'a lighthouse at dawn',
      });
      await store.usage.record({
        jobId: id,
        platform: 'slack',
        workspaceId: 'T1',
        userId: 'U1',
        images: 1,
        inputTokens: 0,
        outputTokens: 0,
        tokensEstimated: false,
      });
      await store.jobs.finish(id, 'done');
    },
    async readJob(id) {
      await store.jobs.get(id);
      await store.versions.byMessage('slack', 'C1', `${id}.result`);
      await store.usage.totals({ platform: 'slack', workspaceId: 'T1', userId: 'U1' });
    },
    close: () => store.close(),
  };
}

/** The store's statements, `?` for parameters. */
const SQL = {
  insertJob: `insert into jobs (id, kind, schema_version, platform, workspace_id, channel_id, thread_id, user_id, input,
      interaction_token, interaction_expires_at, state, attempts, steps, created_at, updated_at)
    values (?, 'imagine', 1, 'slack', 'T1', 'C1', null, 'U1', ?, null, null, 'queued', 0, '', ?, ?)
    on conflict (id) do nothing`,
  selectJob: 'select * from jobs where id = ?',
  claim: `update jobs set state = 'running', attempts = attempts + 1, started_at = coalesce(started_at, ?), updated_at = ?
    where id = ? and state <> 'finished' returning *`,
  step: `update jobs set steps = steps || ?, updated_at = ? where id = ? and state <> 'finished'`,
  version: `insert into image_versions (job_id, image_index, platform, workspace_id, channel_id, thread_id, message_id,
      file_id, mime_type, size_bytes, sha256, parent_job_id, parent_image_index, prompt, created_at)
    values (?, 0, 'slack', 'T1', 'C1', null, ?, ?, 'image/png', 1234567, ?, null, null, 'a lighthouse at dawn', ?)
    on conflict (job_id, image_index) do update set message_id = excluded.message_id, file_id = excluded.file_id`,
  usage: `insert into usage_ledger (job_id, platform, workspace_id, user_id, images, input_tokens, output_tokens,
      tokens_estimated, recorded_at) values (?, 'slack', 'T1', 'U1', 1, 0, 0, 0, ?)
    on conflict (job_id) do update set images = excluded.images`,
  finish: `update jobs set state = 'finished', outcome = 'done', outcome_detail = null, finished_at = ?, updated_at = ?,
      interaction_token = null, interaction_expires_at = null where id = ? and state <> 'finished'`,
  versionsByMessage: `select * from image_versions where platform = 'slack' and channel_id = 'C1' and message_id = ?
    order by image_index`,
  totals: `select coalesce(sum(case when recorded_at >= ? then images else 0 end), 0) as day_images,
      coalesce(sum(case when recorded_at >= ? then input_tokens else 0 end), 0) as day_input_tokens,
      coalesce(sum(case when recorded_at >= ? then output_tokens else 0 end), 0) as day_output_tokens,
      coalesce(sum(case when recorded_at >= ? then 1 else 0 end), 0) as day_jobs,
      coalesce(sum(images), 0) as month_images, coalesce(sum(input_tokens), 0) as month_input_tokens,
      coalesce(sum(output_tokens), 0) as month_output_tokens, count(*) as month_jobs
    from usage_ledger where platform = 'slack' and workspace_id = 'T1' and user_id = 'U1'
      and recorded_at >= ? and recorded_at < ?`,
} as const;

type Statement = keyof typeof SQL;
type Run = (statement: Statement, parameters: readonly unknown[]) => Promise<void>;

function rawWorkload(run: Run, close: () => Promise<void>): Workload {
  return {
    async writeJob(id) {
      const at = (): string => new Date().toISOString();
      await run('insertJob', [id, JSON.stringify(INPUT), at(), at()]);
      await run('selectJob', [id]);
      await run('claim', [at(), at(), id]);
      await run('step', [
        `${JSON.stringify({ name: 'progress-posted', messageId: `${id}.progress`, at: at() })}\n`,
        at(),
        id,
      ]);
      await run('step', [
        `${JSON.stringify({ name: 'files-uploaded', fileIds: [`F-${id}`], messageId: `${id}.result`, at: at() })}\n`,
        at(),
        id,
      ]);
      await run('version', [id, `${id}.result`, `F-${id}`, 'a'.repeat(64), at()]);
      await run('usage', [id, at()]);
      await run('finish', [at(), at(), id]);
    },
    async readJob(id) {
      const now = new Date();
      const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
      const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
      await run('selectJob', [id]);
      await run('versionsByMessage', [`${id}.result`]);
      await run('totals', [day, day, day, day, month, next]);
    },
    close,
  };
}

function rawSqlite(path: string): Workload {
  const database = new BetterSqlite3(path, { timeout: 5_000 });
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  const prepared = new Map<Statement, BetterSqlite3.Statement>();
  return rawWorkload(
    async (statement, parameters) => {
      let compiled = prepared.get(statement);
      if (compiled === undefined) prepared.set(statement, (compiled = database.prepare(SQL[statement])));
      if (compiled.reader) compiled.all(...parameters);
      else compiled.run(...parameters);
    },
    async () => {
      database.close();
    },
  );
}

function rawPostgres(url: string): Workload {
  const pool = new pg.Pool({ connectionString: url });
  const numbered = (text: string): string => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return rawWorkload(
    async (statement, parameters) => {
      await pool.query(numbered(SQL[statement]), [...parameters]);
    },
    () => pool.end(),
  );
}

async function measure(workload: Workload, prefix: string, jobs: number): Promise<Timings> {
  const timings: Timings = { writeMs: [], readMs: [] };
  for (let index = 0; index < jobs; index++) {
    const id = `${prefix}-${index}`;
    let started = performance.now();
    await workload.writeJob(id);
    timings.writeMs.push(performance.now() - started);
    started = performance.now();
    await workload.readJob(id);
    timings.readMs.push(performance.now() - started);
  }
  return timings;
}

interface Dialect {
  label: string;
  /** A DATABASE_URL for a new, empty database. */
  freshUrl(name: string): Promise<string>;
  raw(url: string): Workload;
  target?: number;
}

async function dialectRows(dialect: Dialect): Promise<Row[]> {
  const ours = storeWorkload(await openStore(await dialect.freshUrl('ours')));
  // The store creates the schema; the bare driver then works on the same tables.
  const baselineUrl = await dialect.freshUrl('baseline');
  await (await openStore(baselineUrl)).close();
  const baseline = dialect.raw(baselineUrl);
  try {
    await measure(ours, 'warmup', WARMUP_JOBS);
    await measure(baseline, 'warmup', WARMUP_JOBS);
    const rounds = await interleavedRounds(ROUNDS, (contender, round) =>
      measure(contender === 'ours' ? ours : baseline, `round-${round}`, JOBS_PER_ROUND),
    );
    const all = (timings: Timings[], key: keyof Timings) => timings.flatMap((timing) => timing[key]);
    const prefix = `store ${dialect.label}, ${ROUNDS * JOBS_PER_ROUND} jobs one at a time`;
    const rows: [string, keyof Timings, number, number | undefined][] = [
      ['writes per job (8 statements) p50', 'writeMs', 50, dialect.target],
      ['writes per job p99', 'writeMs', 99, undefined],
      ['reads per job (3 statements) p50', 'readMs', 50, dialect.target],
      ['reads per job p99', 'readMs', 99, undefined],
    ];
    return rows.map(([name, key, p, max]) =>
      boundedRow(
        `${prefix}: ${name}`,
        'ms',
        percentile(all(rounds.ours, key), p),
        percentile(all(rounds.baseline, key), p),
        max,
      ),
    );
  } finally {
    await ours.close();
    await baseline.close();
  }
}

async function sqliteRows(): Promise<Row[]> {
  const directory = await mkdtemp(join(tmpdir(), 'genbot-bench-store-'));
  try {
    return await dialectRows({
      label: 'SQLite',
      freshUrl: async (name) => `sqlite:${join(directory, `${name}.db`)}`,
      raw: (url) => rawSqlite(url.slice('sqlite:'.length)),
      target: SQLITE_TARGET_P50_MS,
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

async function postgresRows(): Promise<Row[]> {
  if (findPostgresBin() === undefined) {
    process.stderr.write(
      `bench: PostgreSQL is not installed, its store rows are left out (${POSTGRES_INSTALL_HINT})\n`,
    );
    return [];
  }
  const server = await startPostgres({ fsync: true });
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    return await dialectRows({
      label: 'PostgreSQL',
      async freshUrl(name) {
        await admin.query(`create database ${name}`);
        return server.urlOf(name);
      },
      raw: rawPostgres,
    });
  } finally {
    await admin.end();
    await server.close();
  }
}

export const storeLatency: Benchmark = {
  name: 'store write and read latency per job: Store vs bare driver',
  async run() {
    return [...(await sqliteRows()), ...(await postgresRows())];
  },
};
