import { ServiceError, type ServiceOperation } from './errors.js';
import { isRetryableStatus, parseRetryAfter } from './retry-policy.js';
import { GenerateContentErrorBodySchema, MessagesErrorBodySchema } from './schemas.js';

const MAX_MESSAGE_LENGTH = 300;

type Headers = Record<string, string | string[] | undefined>;

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
 * (generate-content's `error.status`, messages' `error.type`). `scrub` removes
 * anything the caller must never show (the API key, if a proxy echoes it).
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
  let errorType = `http_${status}`;
  let detail = '';
  let requestId = header(headers, 'request-id') ?? header(headers, 'x-request-id');
  if (anthropic.success) {
    errorType = anthropic.data.error.type;
    detail = anthropic.data.error.message ?? '';
    requestId = anthropic.data.request_id ?? requestId;
  } else if (google.success) {
    errorType = google.data.error.status ?? errorType;
    detail = google.data.error.message ?? '';
  } else if (bodyText.trim() !== '' && json === undefined) {
    detail = bodyText;
  }
  const retryAfterSeconds = parseRetryAfter(headers['retry-after']);
  const message = context.scrub(shorten(`HTTP ${status} ${errorType}${detail === '' ? '' : `: ${detail}`}`));
  return new ServiceError(message, {
    status,
    errorType,
    retryable: isRetryableStatus(status),
    requestId,
    retryAfterSeconds,
    operation: context.operation,
    model: context.model,
  });
}
