export type { BullJobQueueOptions, RateLimit } from './bull-job-queue.js';
export { BullJobQueue } from './bull-job-queue.js';
export { connectRedis } from './redis-connection.js';
export { RedisChannelPace } from './redis-channel-pace.js';
export { RedisSeenKeys } from './redis-seen-keys.js';
export { RedisUserShares } from './redis-user-shares.js';
export { RedisCancellations } from './redis-cancellations.js';
