import { NoOutputError, SafetyStopError, ServiceError, UsageError } from '@genbot/core/errors';
import { settingToCheck } from '@genbot/core/genai';

/** The contract's exit statuses, plus the shell convention for an interrupt (128 + SIGINT). */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  noOutput: 3,
  serviceFailed: 4,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface Failure {
  code: ExitCode;
  /** One human line (usage errors may append the help text); never a stack trace. */
  message: string;
}

/** Maps what a command threw to its exit status and the text for standard error. */
export function failureFor(err: unknown): Failure {
  if (err instanceof UsageError) return { code: ExitCode.usage, message: `genbot: ${err.message}` };
  if (err instanceof NoOutputError) return { code: ExitCode.noOutput, message: `genbot: ${describeNoOutput(err)}` };
  // The text before the stop went to stdout already (the command wrote it): say it is not the whole answer.
  if (err instanceof SafetyStopError) {
    return { code: ExitCode.noOutput, message: `genbot: stopped for safety, the reply is incomplete: ${err.message}` };
  }
  if (err instanceof ServiceError) {
    return { code: ExitCode.serviceFailed, message: `genbot: the service failed: ${describeServiceError(err)}` };
  }
  // Anything else is our own fault (a disk error while writing, a bug): still one line, no stack.
  const detail = err instanceof Error ? err.message : String(err);
  return { code: ExitCode.unexpected, message: `genbot: unexpected error: ${detail}` };
}

/** `503 UNAVAILABLE: what the service said`: the status and type once, then the service's own words. */
function describeServiceError(err: ServiceError): string {
  const head = [err.status, err.type].filter((part) => part !== undefined).join(' ');
  const setting = settingToCheck(err);
  const fix = setting === undefined ? '' : ` (${setting})`;
  const hint = err.retryable ? ' (retrying may help)' : '';
  return `${head}: ${err.serviceMessage ?? err.message}${fix}${hint}`;
}

// The core's message already names the block or finish reason; add what only the ratings say.
function describeNoOutput(err: NoOutputError): string {
  const head = err.safetyBlocked ? 'blocked for safety: ' : '';
  const blockedCategories = [
    ...new Set(
      err.candidates.flatMap((c) =>
        c.safetyRatings.flatMap((r) => (r.blocked === true && r.category !== undefined ? [r.category] : [])),
      ),
    ),
  ];
  const categories = blockedCategories.length > 0 ? ` (blocked categories: ${blockedCategories.join(', ')})` : '';
  return `${head}${err.message}${categories}`;
}
