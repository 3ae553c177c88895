import { type Env, envInteger, envString } from '@genbot/core/config';
import { DEFAULT_LANE_LIMITS, type JobLane } from '@genbot/core/scheduling';
import { ConfigError } from '@genbot/core/errors';

/** Where processes that spread the work share it: jobs and coordination on Redis, state on PostgreSQL. */
export interface SharedState {
  redisUrl: string;
  databaseUrl: string;
}

/**
 * REDIS_URL, and the PostgreSQL database it requires; undefined without
 * REDIS_URL (jobs run in the bot's own process). Throws ConfigError naming
 * both variables when DATABASE_URL is not PostgreSQL: several processes,
 * perhaps on several machines, cannot share an SQLite file.
 */
export function parseSharedState(env: Env): SharedState | undefined {
  const redisUrl = envString(env, 'REDIS_URL');
  if (redisUrl === undefined) return undefined;
  if (!/^rediss?:\/\/./i.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL.', { variable: 'REDIS_URL' });
  }
  const databaseUrl = envString(env, 'DATABASE_URL');
  if (databaseUrl === undefined || !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new ConfigError(
      'REDIS_URL is set, so DATABASE_URL must name a PostgreSQL database (postgres://… or postgresql://…): ' +
        'every process shares its state there, and an SQLite file belongs to one machine.',
      { variable: 'DATABASE_URL' },
    );
  }
  return { redisUrl, databaseUrl };
}

/** The password in REDIS_URL, if any, for log redaction. */
export function redisSecrets(shared: SharedState | undefined): string[] {
  if (shared === undefined) return [];
  try {
    const password = decodeURIComponent(new URL(shared.redisUrl).password);
    return password === '' ? [] : [password];
  } catch {
    return [];
  }
}

/** How one `genbot worker` process takes jobs. */
export interface WorkerTuning {
  /** Jobs it runs at once, per lane (image: /imagine; stream: mentions and edits). */
  concurrency: Record<JobLane, number>;
  /** Jobs started per minute per lane across all workers (BullMQ's global limiter), guarding the model service's rate. */
  perMinute: Partial<Record<JobLane, number>>;
  /** How long a worker's hold on a job lasts without renewal: a dead worker's job goes to another after about this long. */
  lockMs: number;
}

const PER_MINUTE = { fallback: 0, min: 0, max: 1_000_000, what: 'jobs per minute, 0 for no limit' };

export function parseWorkerTuning(env: Env): WorkerTuning {
  const perMinute: Partial<Record<JobLane, number>> = {};
  const image = envInteger(env, 'IMAGE_JOBS_PER_MINUTE', PER_MINUTE);
  const chat = envInteger(env, 'CHAT_JOBS_PER_MINUTE', PER_MINUTE);
  if (image > 0) perMinute.image = image;
  if (chat > 0) perMinute.stream = chat;
  return {
    concurrency: {
      image: envInteger(env, 'WORKER_IMAGE_CONCURRENCY', {
        fallback: DEFAULT_LANE_LIMITS.image.concurrency,
        min: 1,
        max: 1_000,
        what: 'a number of image jobs',
      }),
      stream: envInteger(env, 'WORKER_CHAT_CONCURRENCY', {
        fallback: DEFAULT_LANE_LIMITS.stream.concurrency,
        min: 1,
        max: 1_000,
        what: 'a number of chat jobs',
      }),
    },
    perMinute,
    lockMs: envInteger(env, 'JOB_LOCK_MS', { fallback: 30_000, min: 1_000, max: 600_000, what: 'milliseconds' }),
  };
}
