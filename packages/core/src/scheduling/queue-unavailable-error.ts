import { GenBotError } from '../errors.js';

/**
 * The job queue, or the coordination kept beside it (event de-duplication,
 * user shares, channel pace), cannot be reached: nothing was queued or
 * counted. Trying again once it is back may work, so ingress refuses new work
 * in words rather than failing.
 */
export class QueueUnavailableError extends GenBotError {}
