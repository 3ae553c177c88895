import type { SharedCancellations } from '@genbot/core/scheduling';
import type { Redis } from 'ioredis';
import { reaching } from './redis-connection.js';

/** As long as a job may wait and still be resumed: a job taken later than that is not run anyway. */
const DEFAULT_TTL_MS = 15 * 60_000;

/**
 * `SharedCancellations` on Redis: a cancellation is a key with a time to
 * live, set before it is published on a channel every worker listens on,
 * both in one MULTI. A worker that starts a job after the key was set reads
 * it; one running the job hears the message. BullMQ has no way to abort
 * another process's active job, hence the channel.
 */
export class RedisCancellations implements SharedCancellations {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #channel: string;
  readonly #ttlMs: number;
  #subscriber: Redis | undefined;

  constructor(redis: Redis, options: { prefix?: string; ttlMs?: number } = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'genbot:cancelled:';
    this.#channel = `${this.#prefix}channel`;
    this.#ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  }

  async cancel(trigger: string): Promise<void> {
    await reaching('the cancellation was not sent', async () => {
      const results = await this.#redis
        .multi()
        .set(`${this.#prefix}${trigger}`, '1', 'PX', this.#ttlMs)
        .publish(this.#channel, trigger)
        .exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
    });
  }

  async cancelled(trigger: string): Promise<boolean> {
    const found = await reaching('cannot tell whether a trigger was cancelled', () =>
      this.#redis.exists(`${this.#prefix}${trigger}`),
    );
    return found > 0;
  }

  async listen(onCancel: (trigger: string) => void): Promise<void> {
    if (this.#subscriber !== undefined) throw new Error('already listening for cancellations');
    // A subscribed connection can do nothing else; ioredis subscribes it again after a reconnect.
    const subscriber = this.#redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    subscriber.on('error', () => undefined);
    this.#subscriber = subscriber;
    subscriber.on('message', (channel: string, trigger: string) => {
      if (channel === this.#channel) onCancel(trigger);
    });
    await reaching('cannot listen for cancellations', () => subscriber.subscribe(this.#channel));
  }

  /** Stops listening. */
  close(): void {
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
  }
}
