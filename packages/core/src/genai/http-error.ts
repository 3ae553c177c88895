import {
  ModelNotFoundError,
  ServiceAuthError,
  type ServiceError,
  type ServiceErrorDetails,
  ServiceFailedError,
  type ServiceOperation,
  ServiceOverloadedError,
  ServiceRateLimitedError,
  ServiceRejectedError,
} from './errors.js';
import { parseRetryAfter } from './retry-policy.js';
import { GenerateContentErrorBodySchema, MessagesErrorBodySchema } from './schemas.js';

const MAX_MESSAGE_LENGTH = 300;

type Headers = Record<string, string | string[] | undefined>;

// The services' own error types, read once here into classes.
const OVERLOADED = new Set(['overloaded_error', 'UNAVAILABLE']);
const RATE_LIMITED = new Set(['rate_limit_error', 'RESOURCE_EXHAUSTED']);
const NOT_FOUND = new Set(['not_found_error', 'NOT_FOUND']);
const AUTH = new Set(['authentication_error', 'permission_error', 'UNAUTHENTICATED', 'PERMISSION_DENIED']);
const REJECTED = new Set(['invalid_request_error', 'request_too_large', 'INVALID_ARGUMENT', 'FAILED_PRECONDITION']);
/** generate-content answers a bad key with 400 INVALID_ARGUMENT; only this detail tells it apart. */
const INVALID_KEY_REASONS = new Set(['API_KEY_INVALID']);

/**
 * The failure class for what the service said: an HTTP status, its own error
 * type (from an error body or a stream's error event), or both.
 */
export function serviceFailure(
  message: string,
  details: ServiceErrorDetails & { errorReasons?: readonly string[] },
): ServiceError {
  const { status, serviceType = '' } = details;
  if (details.errorReasons?.some((reason) => INVALID_KEY_REASONS.has(reason)) === true) {
    return new ServiceAuthError(message, details);
  }
  if (status === 404 || NOT_FOUND.has(serviceType)) return new ModelNotFoundError(message, details);
  if (status === 429 || RATE_LIMITED.has(serviceType)) return new ServiceRateLimitedError(message, details);
  if (status === 503 || status === 529 || OVERLOADED.has(serviceType)) {
    return new ServiceOverloadedError(message, details);
  }
  if (status === 401 || status === 403 || AUTH.has(serviceType)) return new ServiceAuthError(message, details);
  if ((status !== undefined && status >= 400 && status < 500) || REJECTED.has(serviceType)) {
    return new ServiceRejectedError(message, details);
  }
  return new ServiceFailedError(message, details);
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE_LENGTH ? `${oneLine.slice(0, MAX_MESSAGE_LENGTH)}…` : oneLine;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A ServiceError from an HTTP error answer, reading either error body shape
 * (generate-content's `error.status`, messages' `error.type`). `bodyText` may
 * be only the start of a long body. `scrub` removes anything the caller must
 * never show (the API key, if a proxy echoes it).
 */
export function httpError(
  status: number,
  headers: Headers,
  bodyText: string,
  context: { operation: ServiceOperation; model: string; scrub: (text: string) => string },
): ServiceError {
  const json = parseJson(bodyText);
  const google = GenerateContentErrorBodySchema.safeParse(json);
  const anthropic = MessagesErrorBodySchema.safeParse(json);
  let serviceType: string | undefined;
  let detail = '';
  let errorReasons: string[] = [];
  let requestId = header(headers, 'request-id') ?? header(headers, 'x-request-id');
  if (anthropic.success) {
    serviceType = anthropic.data.error.type;
    detail = anthropic.data.error.message ?? '';
    requestId = anthropic.data.request_id ?? requestId;
  } else if (google.success) {
    serviceType = google.data.error.status;
    detail = google.data.error.message ?? '';
    errorReasons = (google.data.error.details ?? []).flatMap((item) =>
      item.reason === undefined ? [] : [item.reason],
    );
  } else if (bodyText.trim() !== '' && json === undefined) {
    detail = bodyText;
  }
  const named = serviceType ?? `http_${status}`;
  const message = context.scrub(shorten(`HTTP ${status} ${named}${detail === '' ? '' : `: ${detail}`}`));
  return serviceFailure(message, {
    status,
    serviceType: named,
    // Only what a JSON error body said in words: a proxy's HTML page is nobody's message.
    ...((anthropic.success || google.success) &&
      detail.trim() !== '' && { serviceMessage: context.scrub(shorten(detail)) }),
    errorReasons,
    requestId,
    retryAfterSeconds: parseRetryAfter(headers['retry-after']),
    operation: context.operation,
    model: context.model,
  });
}
