/**
 * Every failure the product raises on purpose is a GenBotError, and each kind
 * of failure is a class of its own: callers (the CLI's exit statuses, the
 * chat's messages, the client's retries) branch with `instanceof`, never on
 * strings or message text.
 */
export abstract class GenBotError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Our input is wrong (bad flag, bad aspect ratio, unsupported image): nothing was sent. */
export class UsageError extends GenBotError {}
