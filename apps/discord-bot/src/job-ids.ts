/**
 * Job ids from the trigger, so a delivery seen twice is one job. Prefixed:
 * Discord ids are digits only, which some queues refuse as job ids.
 */
export function interactionJobId(interactionId: string): string {
  return `dc-int-${interactionId}`;
}

/** A mention's job; also the key that cancels it when the message is deleted (message ids are unique across channels). */
export function messageJobId(messageId: string): string {
  return `dc-msg-${messageId}`;
}

/**
 * A form's job: every submit of one opened form names the interaction that
 * opened it, so a Submit pressed twice is one job.
 */
export function formJobId(openedBy: string): string {
  return `dc-form-${openedBy}`;
}
