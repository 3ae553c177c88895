/** When and how long to wait before trying a failed request again. */

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504, 529]);

// Errors that mean the connection dropped under us, so the request may never have been processed.
const CONNECTION_RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * The service telling every caller to slow down (not just this request):
 * 429, 529, or a 503 that says for how long. The client then holds all its
 * requests, not only the one that failed.
 */
export function isPushback(status: number | undefined, retryAfterSeconds: number | undefined): boolean {
  return status === 429 || status === 529 || (status === 503 && retryAfterSeconds !== undefined);
}

export function isConnectionReset(error: unknown): boolean {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 5;
    current = current.cause, depth++
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_RESET_CODES.has(code)) return true;
    if (current.message === 'other side closed' || /socket hang up|socket closed/i.test(current.message)) return true;
  }
  return false;
}

/**
 * `retry-after` as seconds: either delta-seconds or an HTTP date.
 * Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

export interface BackoffSettings {
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Delay before retry number `retry` (1 for the first retry). The service's
 * retry-after wins when given (capped); otherwise exponential backoff with
 * "equal jitter", so concurrent clients spread out but never retry at once.
 */
export function retryDelayMs(
  retry: number,
  settings: BackoffSettings,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, settings.maxDelayMs);
  const exponential = Math.min(settings.baseDelayMs * 2 ** (retry - 1), settings.maxDelayMs);
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
