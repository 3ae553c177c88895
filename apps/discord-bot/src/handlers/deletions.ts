import type { CancellationRegistry, Logger } from '@genbot/core';
import { Events, type Client } from 'discord.js';
import { triggerKey } from '../trigger-key.js';

/**
 * A deleted message (alone or in a bulk delete) stops the work it started,
 * if any is still running. discord.js reports deletions of the messages it
 * has cached, which the mentions it just received are.
 */
export function cancelOnDelete(client: Client, cancellations: CancellationRegistry, logger: Logger): void {
  const cancel = (messageId: string): void => {
    if (cancellations.cancel(triggerKey(messageId))) logger.info({ messageId }, 'trigger message deleted; its work is cancelled');
  };
  client.on(Events.MessageDelete, (message) => cancel(message.id));
  client.on(Events.MessageBulkDelete, (messages) => {
    for (const id of messages.keys()) cancel(id);
  });
}
