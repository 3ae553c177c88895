import { GenBotError } from '../errors.js';

/** The reason a job's signal carries when the process stops before the job has ended. */
export class ShutdownError extends GenBotError {
  constructor() {
    super('the bot is restarting');
  }
}
