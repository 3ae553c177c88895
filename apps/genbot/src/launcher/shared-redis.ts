import { DEFAULT_LANE_LIMITS, JOB_LANES, type JobLane, type SeenKeys, type UserShares } from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import { MAX_RESUME_AGE_MS, type SharedPlaces } from '@genbot/core/jobs';
import type { ReadinessCheck } from '@genbot/health';
import {
  BullJobQueue,
  type BullJobQueueOptions,
  connectRedis,
  RedisCancellations,
  RedisChannelPace,
  RedisSeenKeys,
  RedisUserShares,
} from '@genbot/queue';
import type { SharedState } from './shared-state.js';

/** Every platform a deploy answers on: the queues a process may write to and look in. */
const PLATFORMS = ['slack', 'discord'] as const;

/**
 * A place in line lasts as long as a job may wait and still be resumed: past it, a
 * process that died holding places no longer keeps their users out.
 */
const PLACE_TTL_MS = MAX_RESUME_AGE_MS;

/** What processes share through REDIS_URL: the job queue and the coordination beside it. */
export interface SharedRedis {
  /** Slack event and mention de-duplication across replicas. */
  seen: SeenKeys;
  /** The per-channel call pace every process posting into a channel keeps together. */
  pace: RedisChannelPace;
  /** Each user's places, counted across processes: taken at intake, given back by the worker. */
  places: SharedPlaces;
  /** A deleted trigger told by the bots to the workers running (or about to run) its job. */
  cancellations: RedisCancellations;
  /** `/readyz`: Redis answers. */
  readiness: ReadinessCheck;
  /** A BullMQ queue over this Redis; the caller closes it. */
  queue(options: Omit<BullJobQueueOptions, 'url' | 'platforms' | 'logger'>): BullJobQueue;
  close(): Promise<void>;
}

/** Connects to REDIS_URL (start-up fails naming it when Redis cannot be reached). */
export async function openSharedRedis(shared: SharedState, logger: Logger): Promise<SharedRedis> {
  const redis = await connectRedis(shared.redisUrl);
  const shares: UserShares = new RedisUserShares(redis);
  const perUser = Object.fromEntries(JOB_LANES.map((lane) => [lane, DEFAULT_LANE_LIMITS[lane].perUser])) as Record<
    JobLane,
    number
  >;
  // Each queue talks to Redis over its own connection, which reconnects on its own schedule: ready
  // means every one of them answers, or a request right after an outage is refused (seen in
  // test/scale/outages.test.ts).
  const queues: BullJobQueue[] = [];
  const cancellations = new RedisCancellations(redis, { ttlMs: MAX_RESUME_AGE_MS });
  return {
    cancellations,
    seen: new RedisSeenKeys(redis),
    pace: new RedisChannelPace(redis),
    places: { shares, perUser, ttlMs: PLACE_TTL_MS },
    readiness: {
      name: 'redis',
      check: async () => {
        try {
          await redis.ping();
          await Promise.all(queues.map((queue) => queue.ping()));
          return undefined;
        } catch (error) {
          return `not reachable (REDIS_URL): ${error instanceof Error ? error.message : String(error)}`;
        }
      },
    },
    queue: (options) => {
      const queue = new BullJobQueue({
        url: shared.redisUrl,
        platforms: PLATFORMS,
        logger: logger.child({ component: 'queue' }),
        ...options,
      });
      queues.push(queue);
      return queue;
    },
    close: async () => {
      cancellations.close();
      redis.disconnect();
    },
  };
}
