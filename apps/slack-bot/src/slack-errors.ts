import { RateLimitedError } from '@genbot/core/errors';
import { z } from 'zod';

// @slack/web-api's WebAPIRateLimitedError (thrown because the client runs with rejectRateLimitedCalls).
const rateLimited = z.looseObject({ code: z.literal('slack_webapi_rate_limited_error'), retryAfter: z.number() });

// @slack/web-api's WebAPIPlatformError: Slack answered `ok: false` with an error code.
const platformError = z.looseObject({
  code: z.literal('slack_webapi_platform_error'),
  data: z.looseObject({ error: z.string() }),
});

/** The error code Slack answered with (`message_not_in_streaming_state`, …); undefined for anything else. */
export function slackErrorCode(error: unknown): string | undefined {
  const parsed = platformError.safeParse(error);
  return parsed.success ? parsed.data.data.error : undefined;
}

/**
 * Web API failures as core expects them: a 429 becomes RateLimitedError (core
 * waits and retries with the latest text); anything else passes unchanged.
 */
export function toSurfaceError(error: unknown, method: string): unknown {
  const limited = rateLimited.safeParse(error);
  if (!limited.success) return error;
  return new RateLimitedError(
    limited.data.retryAfter * 1000,
    `Slack rate limit on ${method}: retry after ${limited.data.retryAfter} s`,
    { cause: error },
  );
}

/** Runs one Web API call, converting its failure. */
export async function slackCall<T>(method: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toSurfaceError(error, method);
  }
}
