/** The cancellation key of work a message started: Discord message IDs are unique across channels. */
export function triggerKey(messageId: string): string {
  return `discord:${messageId}`;
}
