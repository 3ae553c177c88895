import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChannelPace } from '@genbot/core/scheduling';
import type { Logger } from '@genbot/core/log';
import { DefaultRestOptions, type RESTOptions } from 'discord.js';

export type MakeRequest = RESTOptions['makeRequest'];

/** Discord's global limit: requests a second for one bot, whichever process sends them. */
export const GLOBAL_REQUESTS_PER_SECOND = 50;

/**
 * Time between taking a slot and the request reaching Discord (a busy event
 * loop, the connection): slots are spread over a second and this much, so a
 * late request never lands in the next second's count.
 */
const DELIVERY_MARGIN_MS = 100;

/** The pace's kind for these slots; the key is the bot, not a channel. */
const KIND = 'discord-rest';

/**
 * Interaction callbacks and their follow-ups (webhooks addressed by the
 * interaction's token) do not count against the global limit, Discord says;
 * holding them back would only risk the 3-second deadline of a first answer.
 */
function countsGlobally(url: string): boolean {
  return !/\/v\d+\/(interactions|webhooks)\//.test(new URL(url).pathname);
}

function retryAfterMs(headers: { get(name: string): string | null }): number {
  const seconds = Number(headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
}

/**
 * Discord's REST limits are per bot, not per process: discord.js counts only
 * its own process's requests against the global 50 a second, so N processes
 * (shards and workers) would each believe they have the whole budget. This
 * wraps discord.js's request function so every request counting against the
 * global limit first takes a slot from a pace shared through Redis (the same
 * `ChannelPace` that spaces Slack edits), one slot every
 * (1 s + margin) / limit for the whole bot, and a global 429 that gets through
 * anyway holds every process off for its `retry_after`.
 *
 * Why this rather than @discordjs/proxy: the proxy is one more service to
 * deploy, scale and keep alive in front of every process, and a single point
 * of failure for all Discord traffic; genbot already runs on Redis whenever it
 * runs in several processes. Per-route buckets need no sharing: Discord counts
 * them server-side and every response's `X-RateLimit-Remaining` tells each
 * process the shared count, which discord.js already obeys (and core paces the
 * busy message routes per channel through the same Redis).
 *
 * When the pace cannot be reached (Redis down), requests go out unshared
 * rather than fail: discord.js still holds this process to the global limit,
 * and a reply is worth more than a possible 429, which discord.js waits out.
 */
export function sharedRestLimit(options: {
  pace: ChannelPace;
  /** Identifies the bot; only a hash of it is kept. */
  token: string;
  logger?: Logger;
  perSecond?: number;
  send?: MakeRequest;
}): MakeRequest {
  const { pace, logger } = options;
  const send = options.send ?? DefaultRestOptions.makeRequest;
  const intervalMs = (1000 + DELIVERY_MARGIN_MS) / (options.perSecond ?? GLOBAL_REQUESTS_PER_SECOND);
  const bot = createHash('sha256').update(options.token).digest('hex').slice(0, 24);
  return async (url, init) => {
    if (countsGlobally(url)) {
      const wait = await pace.reserve(bot, KIND, intervalMs).catch((error: unknown) => {
        logger?.warn({ err: error }, 'discord REST sent without the shared global limit (pace unreachable)');
        return 0;
      });
      if (wait > 0) await sleep(wait, undefined, init.signal ? { signal: init.signal } : {});
    }
    const response = await send(url, init);
    if (response.status === 429 && response.headers.get('x-ratelimit-global') !== null) {
      const ms = retryAfterMs(response.headers);
      logger?.warn({ retryAfterMs: ms }, 'discord global rate limit met: every process holds off');
      await pace.holdOff(bot, KIND, ms).catch(() => undefined);
    }
    return response;
  };
}

/** The shared limit when there is a shared pace (REDIS_URL); discord.js's per-process one otherwise. */
export function restLimitOf(
  discord: { token: string },
  pace: ChannelPace | undefined,
  logger: Logger | undefined,
): MakeRequest | undefined {
  return pace === undefined ? undefined : sharedRestLimit({ pace, token: discord.token, ...(logger && { logger }) });
}
