import { GenBotError } from '../errors.js';

/**
 * The database cannot be reached, read or written: down, locked past the
 * busy timeout (`retryable`), or damaged, read-only, full (an operator must
 * act). Work that needs the store is refused while it lasts; what was
 * recorded before stays recorded. The message names DATABASE_URL.
 */
export class StoreUnavailableError extends GenBotError {
  /** Whether trying again later, unchanged, may succeed. */
  readonly retryable: boolean;

  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.retryable = options.retryable;
  }
}
