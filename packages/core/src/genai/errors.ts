import { GenBotError, UsageError } from '../errors.js';

/** Bytes that are not an image of a format we can send (a text file named `.png`, a TIFF). */
export class NotAnImageError extends UsageError {}

export interface SafetyRating {
  category?: string | undefined;
  probability?: string | undefined;
  blocked?: boolean | undefined;
}

export interface CandidateOutcome {
  index: number;
  finishReason?: string | undefined;
  finishMessage?: string | undefined;
  safetyRatings: SafetyRating[];
}

/**
 * Finish reasons of generate-content that mean the answer was withheld or cut
 * for safety or policy, not that it was complete or merely long.
 */
export const SAFETY_FINISH_REASONS: ReadonlySet<string> = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** The messages operation's stop reason for a reply withheld for safety. */
export const REFUSAL_STOP_REASON = 'refusal';

/** The service answered but produced no image or no text. */
export class NoOutputError extends GenBotError {
  /** What was missing: the caller asked for text or for an image. */
  readonly wanted: 'text' | 'image';
  /** generate-content: why the prompt was blocked, when it was. */
  readonly blockReason: string | undefined;
  /** generate-content: how each candidate ended. */
  readonly candidates: CandidateOutcome[];
  /** messages: the stream's stop reason. */
  readonly stopReason: string | undefined;

  constructor(
    message: string,
    details: {
      wanted: 'text' | 'image';
      blockReason?: string | undefined;
      candidates?: CandidateOutcome[];
      stopReason?: string | undefined;
    },
  ) {
    super(message);
    this.wanted = details.wanted;
    this.blockReason = details.blockReason;
    this.candidates = details.candidates ?? [];
    this.stopReason = details.stopReason;
  }

  /** True when the prompt or output was withheld for safety/policy rather than simply empty. */
  get safetyBlocked(): boolean {
    if (this.blockReason !== undefined || this.stopReason === REFUSAL_STOP_REASON) return true;
    return this.candidates.some(
      (c) =>
        (c.finishReason !== undefined && SAFETY_FINISH_REASONS.has(c.finishReason)) ||
        c.safetyRatings.some((r) => r.blocked === true),
    );
  }
}

/**
 * The service gave some text, then stopped for safety (generate-content's
 * `finishReason` SAFETY and the like, a messages stream's `refusal`): not a
 * success. `text` is what came before the stop.
 */
export class SafetyStopError extends GenBotError {
  readonly text: string;
  /** The finish or stop reason, as the service named it (`SAFETY`, `refusal`). */
  readonly reason: string;
  /** The service's own explanation, when it gave one. */
  readonly explanation: string | undefined;

  constructor(details: { text: string; reason: string; explanation?: string | undefined }) {
    super(
      `The service stopped the reply for safety (${details.reason}${details.explanation === undefined ? '' : `: ${details.explanation}`}).`,
    );
    this.text = details.text;
    this.reason = details.reason;
    this.explanation = details.explanation;
  }
}

/** The three calls of the service client: generate-content for text or images, and messages. */
export type ServiceOperation = 'text' | 'image' | 'messages';

export interface ServiceErrorDetails {
  /** Which call failed, so a user-facing text can name the model and the variable that sets it. */
  operation?: ServiceOperation | undefined;
  model?: string | undefined;
  /** HTTP status, when the service answered with one. */
  status?: number | undefined;
  /** The service's own error type (`overloaded_error`, `RESOURCE_EXHAUSTED`), when it named one. */
  serviceType?: string | undefined;
  /** The service's own words about the error, without our status prefix, when it gave any. */
  serviceMessage?: string | undefined;
  requestId?: string | undefined;
  /** Seconds the service asked us to wait, when it said. */
  retryAfterSeconds?: number | undefined;
  cause?: unknown;
}

/** The service failed: an HTTP error after retries, an error mid-stream, a timeout, a network fault. */
export abstract class ServiceError extends GenBotError {
  readonly operation: ServiceOperation | undefined;
  readonly model: string | undefined;
  readonly status: number | undefined;
  readonly serviceType: string | undefined;
  readonly serviceMessage: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** Whether trying again later may help. */
  abstract readonly retryable: boolean;
  /** What this kind is called when no service error type names it, for people (CLI output, logs). */
  protected abstract readonly ownType: string;

  constructor(message: string, details: ServiceErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.operation = details.operation;
    this.model = details.model;
    this.status = details.status;
    this.serviceType = details.serviceType;
    this.serviceMessage = details.serviceMessage;
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }

  /** For people, never for branching: the service's error type, or ours for this kind. */
  get type(): string {
    return this.serviceType ?? this.ownType;
  }
}

/** No answer (or, in a stream, no content) within the deadline. */
export class ServiceTimeoutError extends ServiceError {
  readonly retryable = true;
  protected readonly ownType = 'timeout';
}

/** The connection closed before the answer was complete. */
export class StreamCutError extends ServiceError {
  readonly retryable = true;
  protected readonly ownType = 'stream_cut';
}

/** The answer (a body, a stream, one of its lines or events) was larger than we accept. */
export class ResponseTooLargeError extends ServiceError {
  readonly retryable = false;
  protected readonly ownType = 'too_large';
  readonly limitBytes: number;

  constructor(message: string, details: ServiceErrorDetails & { limitBytes: number }) {
    super(message, details);
    this.limitBytes = details.limitBytes;
  }
}

/** The service could not be reached, or the connection failed before an answer. */
export class NetworkError extends ServiceError {
  readonly retryable = true;
  protected readonly ownType = 'network_error';
  /** The connection dropped under a request that may never have been processed: worth sending again. */
  readonly connectionReset: boolean;

  constructor(message: string, details: ServiceErrorDetails & { connectionReset: boolean }) {
    super(message, details);
    this.connectionReset = details.connectionReset;
  }
}

/** The answer did not have the shape we need (not JSON, a field we need missing, broken Base64). */
export class BadResponseError extends ServiceError {
  readonly retryable = true;
  protected readonly ownType = 'bad_response';
}

/** The service asks us to slow down (429, `rate_limit_error`, `RESOURCE_EXHAUSTED`). */
export class ServiceRateLimitedError extends ServiceError {
  readonly retryable = true;
  protected readonly ownType = 'rate_limited';
}

/** The service is overloaded or unavailable (503, 529, `overloaded_error`, `UNAVAILABLE`). */
export class ServiceOverloadedError extends ServiceError {
  readonly retryable = true;
  protected readonly ownType = 'overloaded';
}

/** The service does not know the model (404). */
export class ModelNotFoundError extends ServiceError {
  readonly retryable = false;
  protected readonly ownType = 'not_found';
}

/** The service refused our credentials (401, 403, an invalid API key). */
export class ServiceAuthError extends ServiceError {
  readonly retryable = false;
  protected readonly ownType = 'authentication';
}

/** The service refused the request as it was (any other 4xx, `invalid_request_error`). */
export class ServiceRejectedError extends ServiceError {
  readonly retryable = false;
  protected readonly ownType = 'rejected';
}

/** The service failed on its side (5xx, `api_error`, an error type we do not know). */
export class ServiceFailedError extends ServiceError {
  readonly retryable = true;
  protected readonly ownType = 'failed';
}
