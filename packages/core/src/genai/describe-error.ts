import { NoOutputError, ServiceError, UsageError, type ServiceOperation } from './errors.js';

export interface ErrorDescription {
  /** One or two short sentences for a chat message or stderr: no stack, no secrets. */
  summary: string;
  /** Whether trying again later may help. */
  retryable: boolean;
}

const SERVICE_NAMES: Record<ServiceOperation, string> = {
  image: 'image service',
  text: 'text service',
  messages: 'chat service',
};

const MODEL_VARIABLES: Record<ServiceOperation, string> = {
  image: 'IMAGE_MODEL',
  text: 'TEXT_MODEL',
  messages: 'CHAT_MODEL',
};

const OVERLOADED = new Set(['overloaded_error', 'UNAVAILABLE']);
const RATE_LIMITED = new Set(['rate_limit_error', 'RESOURCE_EXHAUSTED']);
const NOT_FOUND = new Set(['not_found_error', 'NOT_FOUND']);
const AUTH = new Set(['authentication_error', 'permission_error', 'UNAUTHENTICATED', 'PERMISSION_DENIED']);

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function describeNoOutput(error: NoOutputError): ErrorDescription {
  const reasons = [
    ...(error.blockReason === undefined ? [] : [error.blockReason]),
    ...error.candidates.flatMap((c) => (c.finishReason === undefined || c.finishReason === 'STOP' ? [] : [c.finishReason])),
  ];
  const reasonText = [...new Set(reasons)].join(', ');
  if (error.safetyBlocked) {
    const categories = [
      ...new Set(error.candidates.flatMap((c) => c.safetyRatings.filter((r) => r.blocked === true).map((r) => r.category))),
    ];
    const why = [reasonText, ...categories].filter((part) => part !== '').join(', ');
    return { summary: `Blocked for safety: ${why === '' ? 'the request was refused' : why}. Try rewording it.`, retryable: false };
  }
  const what = error.wanted === 'image' ? 'no image' : 'no text';
  return { summary: `The model returned ${what}${reasonText === '' ? '' : ` (${reasonText})`}.`, retryable: true };
}

function describeService(error: ServiceError): ErrorDescription {
  const service = error.operation === undefined ? 'service' : SERVICE_NAMES[error.operation];
  const status = error.status === undefined ? '' : ` (${error.status})`;
  if (error.status === 404 || NOT_FOUND.has(error.errorType)) {
    const variable = error.operation === undefined ? 'the model setting' : MODEL_VARIABLES[error.operation];
    const model = error.model === undefined ? 'The model' : `Model '${error.model}'`;
    return { summary: `${model} was not found${status}: check ${variable}.`, retryable: false };
  }
  if (error.status === 529 || error.status === 503 || OVERLOADED.has(error.errorType)) {
    return { summary: `The ${service} is overloaded right now. Try again in a minute.`, retryable: true };
  }
  if (error.status === 429 || RATE_LIMITED.has(error.errorType)) {
    return { summary: `The ${service} is receiving too many requests right now. Try again in a minute.`, retryable: true };
  }
  if (error.status === 401 || error.status === 403 || AUTH.has(error.errorType)) {
    return { summary: `The ${service} refused our credentials${status}: check GENAI_API_KEY.`, retryable: false };
  }
  if (error.status === 413) {
    return { summary: `The request is too large for the ${service}${status}.`, retryable: false };
  }
  switch (error.errorType) {
    case 'timeout':
      return { summary: `The ${service} took too long to answer. Try again.`, retryable: true };
    case 'stream_cut':
      return { summary: `The reply was cut off by the ${service}. Try again.`, retryable: true };
    case 'network_error':
      return { summary: `Could not reach the ${service}. Try again in a moment.`, retryable: true };
    case 'bad_response':
      return { summary: `The ${service} sent an answer we could not read. Try again.`, retryable: true };
    default:
      break;
  }
  if (error.status !== undefined && error.status >= 500) {
    return { summary: `The ${service} failed${status}. Try again in a minute.`, retryable: true };
  }
  if (error.status !== undefined && error.status >= 400) {
    return { summary: `The ${service} rejected the request${status}: ${error.message}`, retryable: false };
  }
  return { summary: `The ${service} failed (${error.errorType}).`, retryable: error.retryable };
}

/** Short human text for an error of any kind, for users; details belong in the logs. */
export function describeError(error: unknown): ErrorDescription {
  if (error instanceof UsageError) return { summary: error.message, retryable: false };
  if (error instanceof NoOutputError) return describeNoOutput(error);
  if (error instanceof ServiceError) return describeService(error);
  if (isAbort(error)) return { summary: 'The request was cancelled.', retryable: true };
  return { summary: 'Something went wrong on our side.', retryable: false };
}
