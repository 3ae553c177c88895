/** Every error class a caller of core may catch or throw, in one place. */
export {
  BadResponseError,
  GenBotError,
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
  UsageError,
} from './genai/errors.js';
export { ConfigError } from './config/config-error.js';
export { RateLimitedError } from './chat/errors.js';
export { CancelledError } from './jobs/cancellation-registry.js';
export { JobRejectedError } from './jobs/job-rejected-error.js';
export { QueueUnavailableError } from './jobs/queue-unavailable-error.js';
export { JobLeftForLaterError } from './jobs/job-left-for-later-error.js';
export { AttachmentUnavailableError, type UnavailableReason } from './chat/attachment-unavailable.js';
