import {
  BadResponseError,
  ModelNotFoundError,
  NetworkError,
  NoOutputError,
  ResponseTooLargeError,
  SafetyStopError,
  ServiceAuthError,
  ServiceError,
  type ServiceOperation,
  ServiceOverloadedError,
  ServiceRateLimitedError,
  ServiceTimeoutError,
  StreamCutError,
} from './errors.js';
import { UsageError } from '../errors.js';

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

/** The variable that sets the model of each operation. */
const MODEL_VARIABLES: Record<ServiceOperation, string> = {
  image: 'IMAGE_MODEL',
  text: 'TEXT_MODEL',
  messages: 'CHAT_MODEL',
};

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** Safety categories and block reasons in words: `HARM_CATEGORY_DANGEROUS_CONTENT` is "dangerous content". */
const SAFETY_WORDS: Readonly<Record<string, string>> = {
  PROHIBITED_CONTENT: 'prohibited content',
  BLOCKLIST: 'blocked terms',
  SPII: 'personal information',
  IMAGE_SAFETY: '',
  SAFETY: '',
  OTHER: '',
};

function safetyWords(codes: readonly string[]): string {
  const words = codes.map((code) =>
    code in SAFETY_WORDS
      ? (SAFETY_WORDS[code] ?? '')
      : code
          .replace(/^HARM_CATEGORY_/, '')
          .replaceAll('_', ' ')
          .toLowerCase(),
  );
  return [...new Set(words.filter((word) => word !== ''))].join(', ');
}

function describeNoOutput(error: NoOutputError): ErrorDescription {
  const what = error.wanted === 'image' ? 'image' : 'reply';
  if (error.safetyBlocked) {
    const codes = [
      ...(error.blockReason === undefined ? [] : [error.blockReason]),
      ...error.candidates.flatMap((c) => [
        ...(c.finishReason === undefined ? [] : [c.finishReason]),
        ...c.safetyRatings.flatMap((r) => (r.blocked === true && r.category !== undefined ? [r.category] : [])),
      ]),
    ];
    const words = safetyWords(codes);
    return {
      summary: `The model declined this for safety reasons${words === '' ? '' : ` (${words})`}. Rewording it may help.`,
      retryable: false,
    };
  }
  return { summary: `The model gave no ${what} this time.`, retryable: true };
}

/** The setting an operator changes to fix this error, when there is one: the model's variable, the key. */
export function settingToCheck(error: ServiceError): string | undefined {
  if (error instanceof ModelNotFoundError) {
    return `check ${error.operation === undefined ? 'the model setting' : MODEL_VARIABLES[error.operation]}`;
  }
  if (error instanceof ServiceAuthError) return 'check GENAI_API_KEY';
  return undefined;
}

function describeService(error: ServiceError): ErrorDescription {
  const service = error.operation === undefined ? 'service' : SERVICE_NAMES[error.operation];
  if (error instanceof ModelNotFoundError) {
    const model = error.model === undefined ? 'this model' : `the model '${error.model}'`;
    return { summary: `The ${service} does not know ${model}: ${settingToCheck(error)}.`, retryable: false };
  }
  if (error instanceof ServiceOverloadedError) {
    return { summary: `The ${service} is overloaded right now. Try again in a minute.`, retryable: true };
  }
  if (error instanceof ServiceRateLimitedError) {
    return {
      summary: `The ${service} is receiving too many requests right now. Try again in a minute.`,
      retryable: true,
    };
  }
  if (error instanceof ServiceAuthError) {
    return { summary: `The ${service} refused our credentials: ${settingToCheck(error)}.`, retryable: false };
  }
  if (error instanceof ServiceTimeoutError) {
    return { summary: `The ${service} took too long to answer. Try again.`, retryable: true };
  }
  if (error instanceof StreamCutError) {
    return { summary: `The ${service} dropped the connection mid-answer. Try again.`, retryable: true };
  }
  if (error instanceof NetworkError) {
    return { summary: `Could not reach the ${service}. Try again in a moment.`, retryable: true };
  }
  if (error instanceof BadResponseError) {
    return { summary: `The ${service} sent an answer we could not read. Try again.`, retryable: true };
  }
  if (error instanceof ResponseTooLargeError) {
    return { summary: `The ${service} sent more than we accept in one answer.`, retryable: false };
  }
  if (error.status === 413) {
    return { summary: `The request is too large for the ${service}.`, retryable: false };
  }
  if (error.status !== undefined && error.status >= 500) {
    return { summary: `The ${service} failed. Try again in a minute.`, retryable: true };
  }
  if (error.status !== undefined && error.status >= 400) {
    const said = error.serviceMessage === undefined ? '.' : `: ${sentence(error.serviceMessage)}`;
    return { summary: `The ${service} rejected the request${said}`, retryable: false };
  }
  return { summary: `The ${service} failed.`, retryable: error.retryable };
}

/** The service's words as the end of one of ours: a closing full stop, once. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** Short human text for an error of any kind, for users; details belong in the logs. */
/**
 * A failure that is an answer, not a fault: the service declined (a safety block, no output) or the
 * request itself was wrong. Logged as a warning with its message, never at error with a stack.
 */
export function isExpectedFailure(error: unknown): error is NoOutputError | SafetyStopError | UsageError {
  return error instanceof NoOutputError || error instanceof SafetyStopError || error instanceof UsageError;
}

export function describeError(error: unknown): ErrorDescription {
  if (error instanceof UsageError) return { summary: error.message, retryable: false };
  if (error instanceof NoOutputError) return describeNoOutput(error);
  if (error instanceof SafetyStopError) {
    return { summary: 'The model stopped for safety reasons. Rewording it may help.', retryable: false };
  }
  if (error instanceof ServiceError) return describeService(error);
  if (isAbort(error)) return { summary: 'The request was cancelled.', retryable: true };
  return { summary: 'Something went wrong on our side.', retryable: false };
}
