import { UsageError } from '../errors.js';

/** A variable that does not fit; the message names the variable and never repeats its value. */
export class ConfigError extends UsageError {
  /** The variable at fault, when one is. */
  readonly variable: string | undefined;

  constructor(message: string, options: { variable?: string } = {}) {
    super(message);
    this.variable = options.variable;
  }
}
