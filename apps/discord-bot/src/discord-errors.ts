import { GenBotError, RateLimitedError } from '@genbot/core/errors';
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';

/**
 * A Discord REST failure without the request it came from: discord.js errors
 * carry the URL (interaction webhook URLs embed the interaction token) and
 * the request body, which must not reach logs.
 */
export class DiscordCallError extends GenBotError {
  readonly status: number;
  /** Discord's JSON error code (50013 Missing Permissions, 10008 Unknown Message...), when it gave one. */
  readonly code: number | undefined;

  constructor(status: number, code: number | undefined, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function retryAfterMs(raw: unknown): number {
  const seconds =
    typeof raw === 'object' && raw !== null && 'retry_after' in raw && typeof raw.retry_after === 'number'
      ? raw.retry_after
      : 1;
  return Math.ceil(seconds * 1000);
}

/**
 * Maps what discord.js throws to what core understands. discord.js already
 * queues per bucket and waits out 429s, so a rate limit only surfaces here
 * when it gave up: core then waits and retries with its latest text.
 */
export function toChatError(error: unknown): unknown {
  if (error instanceof RateLimitError) {
    return new RateLimitedError(error.retryAfter, `Discord rate limit on ${error.method} ${error.route}`);
  }
  if (error instanceof DiscordAPIError) {
    if (error.status === 429) return new RateLimitedError(retryAfterMs(error.rawError), 'Discord rate limit');
    const code = typeof error.code === 'number' ? error.code : undefined;
    return new DiscordCallError(
      error.status,
      code,
      `Discord refused ${error.method} (${error.status}): ${error.message}`,
    );
  }
  if (error instanceof HTTPError) {
    return new DiscordCallError(error.status, undefined, `Discord answered ${error.method} with HTTP ${error.status}`);
  }
  return error;
}

/** Runs one Discord call, rethrowing its failure as `toChatError` maps it. */
export async function discordCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toChatError(error);
  }
}
