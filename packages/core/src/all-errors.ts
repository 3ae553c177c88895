/** Every error class a caller of core may catch or throw, in one place. */
export { GenBotError, UsageError } from './errors.js';
export {
  BadResponseError,
  ModelNotFoundError,
  NetworkError,
  NoOutputError,
  ResponseTooLargeError,
  SafetyStopError,
  ServiceAuthError,
  ServiceError,
  ServiceFailedError,
  ServiceOverloadedError,
  ServiceRateLimitedError,
  ServiceRejectedError,
  ServiceTimeoutError,
  StreamCutError,
} from './genai/errors.js';
export { ConfigError } from './config/config-error.js';
export { RateLimitedError } from './surface/rate-limited-error.js';
export { CancelledError } from './scheduling/cancellation-registry.js';
export { JobRejectedError } from './scheduling/job-rejected-error.js';
export { QueueUnavailableError } from './scheduling/queue-unavailable-error.js';
export { JobLeftForLaterError } from './scheduling/job-left-for-later-error.js';
export { AttachmentUnavailableError, type UnavailableReason } from './files/attachment-unavailable.js';
