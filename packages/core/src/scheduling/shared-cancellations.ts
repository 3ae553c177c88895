/**
 * Cancellation by trigger across processes. The process that hears a trigger
 * message was deleted (a bot's ingress) is seldom the one running its job (a
 * worker), and the job may not have started yet: the cancellation is told to
 * every process at once and kept for a while, so a job that starts later sees
 * it too. In-process the runtime's own registry is enough; Redis with REDIS_URL.
 */
export interface SharedCancellations {
  /** Tells every listening process that the work `trigger` started is cancelled, and remembers it. */
  cancel(trigger: string): Promise<void>;
  /** True when `trigger` was cancelled by any process within the time it is remembered. */
  cancelled(trigger: string): Promise<boolean>;
  /** From when it resolves, `onCancel` hears every trigger any process cancels. */
  listen(onCancel: (trigger: string) => void): Promise<void>;
}
