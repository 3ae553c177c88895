import type { ChatDeps } from './deps.js';
import type { JobLane } from '../scheduling/lane-limits.js';

export interface ModelCallScheduling {
  lane: JobLane;
  /** The platform user the call is for; without it the call is not scheduled. */
  userId: string | undefined;
  signal: AbortSignal | undefined;
  onQueued?: (position: number) => void;
}

/**
 * Runs a use case's model call through the deps' scheduler when there is one
 * and the user is known; otherwise at once, as callers without a scheduler
 * always had it. Rejects with `JobRejectedError` when the scheduler refuses.
 */
export function runModelCall<T>(
  deps: ChatDeps,
  scheduling: ModelCallScheduling,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  const { lane, userId, signal, onQueued } = scheduling;
  if (deps.scheduler === undefined || userId === undefined) return call(signal);
  return deps.scheduler.schedule(lane, userId, call, { signal, onQueued });
}
