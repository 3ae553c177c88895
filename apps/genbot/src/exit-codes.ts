import { NoOutputError, ServiceError, UsageError } from '@genbot/core';

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
  if (err instanceof ServiceError) {
    return { code: ExitCode.serviceFailed, message: `genbot: the service failed: ${describeServiceError(err)}` };
  }
  // Anything else is our own fault (a disk error while writing, a bug): still one line, no stack.
  const detail = err instanceof Error ? err.message : String(err);
  return { code: ExitCode.unexpected, message: `genbot: unexpected error: ${detail}` };
}

function describeServiceError(err: ServiceError): string {
  const head = [err.status, err.errorType].filter((part) => part !== undefined).join(' ');
  const hint = err.retryable ? ' (retrying may help)' : '';
  return `${head}: ${err.message}${hint}`;
}

// The core's message already names the block or finish reason; add what only the ratings say.
function describeNoOutput(err: NoOutputError): string {
  const head = err.safetyBlocked ? 'blocked for safety: ' : '';
  const blockedCategories = [
    ...new Set(err.candidates.flatMap((c) => c.safetyRatings.filter((r) => r.blocked === true).map((r) => r.category))),
  ];
  const categories = blockedCategories.length > 0 ? ` (blocked categories: ${blockedCategories.join(', ')})` : '';
  return `${head}${err.message}${categories}`;
}
