import { randomBytes } from 'node:crypto';

export type GoogleStatus =
  | 'INVALID_ARGUMENT'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'RESOURCE_EXHAUSTED'
  | 'INTERNAL'
  | 'UNAVAILABLE';

export interface GoogleError {
  httpStatus: number;
  body: { error: { code: number; message: string; status: GoogleStatus; details?: unknown[] } };
  headers: Record<string, string>;
}

export function googleError(code: number, status: GoogleStatus, message: string): GoogleError {
  return { httpStatus: code, body: { error: { code, message, status } }, headers: {} };
}

export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export function anthropicErrorBody(type: AnthropicErrorType, message: string, requestId: string) {
  return { type: 'error', error: { type, message }, request_id: requestId };
}

/** The generate-content error for a status fault, shaped like Google's. */
export function googleFaultError(status: 429 | 500 | 503 | 529, retryAfterSeconds: number): GoogleError {
  switch (status) {
    case 429: {
      const error = googleError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
      error.body.error.details = [
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfterSeconds}s` },
      ];
      error.headers['retry-after'] = String(retryAfterSeconds);
      return error;
    }
    case 500:
      return googleError(
        500,
        'INTERNAL',
        'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      );
    case 503:
      return googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.');
    case 529:
      return googleError(529, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
  }
}

/** The messages error type and message for a status fault, like Anthropic's. */
export function anthropicFaultError(status: 429 | 500 | 503 | 529): { type: AnthropicErrorType; message: string } {
  switch (status) {
    case 429:
      return { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit.' };
    case 500:
      return { type: 'api_error', message: 'Internal server error' };
    case 503:
      return { type: 'api_error', message: 'Service unavailable' };
    case 529:
      return { type: 'overloaded_error', message: 'Overloaded' };
  }
}
