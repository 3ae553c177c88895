/**
 * The three ways a call to the content-generation service can fail. Callers
 * (CLI, chat use cases) branch on the class, never on message text.
 */

export abstract class GenBotError extends Error {
  abstract readonly kind: 'usage' | 'no_output' | 'service';
}

/** Our input is wrong (bad flag, bad aspect ratio, unsupported image): nothing was sent. */
export class UsageError extends GenBotError {
  readonly kind = 'usage' as const;
  // Widened to string so subclasses (ConfigError) can name themselves.
  override readonly name: string = 'UsageError';
}

export interface SafetyRating {
  category: string;
  probability?: string | undefined;
  blocked?: boolean | undefined;
}

export interface CandidateOutcome {
  index: number;
  finishReason?: string | undefined;
  finishMessage?: string | undefined;
  safetyRatings: SafetyRating[];
}

/** The service answered (HTTP 200) but produced no image or no text. */
export class NoOutputError extends GenBotError {
  readonly kind = 'no_output' as const;
  override readonly name = 'NoOutputError';
  readonly blockReason: string | undefined;
  readonly candidates: CandidateOutcome[];
  /** What was missing: the caller asked for text or for an image. */
  readonly wanted: 'text' | 'image';

  constructor(
    message: string,
    details: { wanted: 'text' | 'image'; blockReason?: string | undefined; candidates?: CandidateOutcome[] },
  ) {
    super(message);
    this.wanted = details.wanted;
    this.blockReason = details.blockReason;
    this.candidates = details.candidates ?? [];
  }

  /** True when the prompt or output was withheld for safety/policy rather than simply empty. */
  get safetyBlocked(): boolean {
    const safetyReasons = /SAFETY|PROHIBITED|BLOCKLIST|SPII|RECITATION/;
    if (this.blockReason !== undefined) return true;
    return this.candidates.some(
      (c) => (c.finishReason !== undefined && safetyReasons.test(c.finishReason)) || c.safetyRatings.some((r) => r.blocked === true),
    );
  }
}

/** The three calls of the service client: generate-content for text or images, and messages. */
export type ServiceOperation = 'text' | 'image' | 'messages';

/** The service failed: HTTP error after retries, an error event mid-stream, a timeout, a network fault. */
export class ServiceError extends GenBotError {
  readonly kind = 'service' as const;
  override readonly name = 'ServiceError';
  /** HTTP status, or undefined for network faults, timeouts and mid-stream error events. */
  readonly status: number | undefined;
  /** The service's error type (`overloaded_error`, `RESOURCE_EXHAUSTED`, ...) or ours (`timeout`, `network_error`, `stream_cut`, `bad_response`). */
  readonly errorType: string;
  readonly retryable: boolean;
  readonly requestId: string | undefined;
  /** Seconds the service asked us to wait, when it said. */
  readonly retryAfterSeconds: number | undefined;
  /** Which call failed, so a user-facing text can name the model and the variable that sets it. */
  readonly operation: ServiceOperation | undefined;
  readonly model: string | undefined;

  constructor(
    message: string,
    details: {
      status?: number | undefined;
      errorType: string;
      retryable: boolean;
      requestId?: string | undefined;
      retryAfterSeconds?: number | undefined;
      operation?: ServiceOperation | undefined;
      model?: string | undefined;
      cause?: unknown;
    },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.errorType = details.errorType;
    this.retryable = details.retryable;
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.operation = details.operation;
    this.model = details.model;
  }
}
