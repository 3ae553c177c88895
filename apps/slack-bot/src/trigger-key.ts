/** The cancellation key of work a message started: its deletion names the same channel and ts. */
export function triggerKey(channel: string, ts: string): string {
  return `slack:${channel}:${ts}`;
}
