import { RateLimitedError } from '@genbot/core';
import { z } from 'zod';

// @slack/web-api's WebAPIRateLimitedError (thrown because the client runs with rejectRateLimitedCalls).
const rateLimited = z.looseObject({ code: z.literal('slack_webapi_rate_limited_error'), retryAfter: z.number() });

/**
 * Web API failures as core expects them: a 429 becomes RateLimitedError (core
 * waits and retries with the latest text); anything else passes unchanged.
 */
export function toSurfaceError(error: unknown, method: string): unknown {
  const limited = rateLimited.safeParse(error);
  if (!limited.success) return error;
  return new RateLimitedError(limited.data.retryAfter * 1000, `Slack rate limit on ${method}: retry after ${limited.data.retryAfter} s`, { cause: error });
}

/** Runs one Web API call, converting its failure. */
export async function slackCall<T>(method: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toSurfaceError(error, method);
  }
}
