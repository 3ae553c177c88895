import type { Logger } from '@genbot/core/log';
import { Events, type Client } from 'discord.js';
import { messageJobId } from '../job-ids.js';

/**
 * A deleted message (alone or in a bulk delete) stops the work it started,
 * if any is still running, in this process or (REDIS_URL) in the worker
 * running it. discord.js reports deletions of the messages it has cached,
 * which the mentions it just received are.
 */
export function cancelOnDelete(
  client: Client,
  cancellations: { cancelEverywhere(trigger: string): Promise<boolean> },
  logger: Logger,
): void {
  const cancel = (messageId: string): void => {
    cancellations.cancelEverywhere(messageJobId(messageId)).then(
      (cancelled) => {
        if (cancelled) logger.info({ messageId }, 'trigger message deleted; its work is cancelled');
      },
      (error: unknown) =>
        logger.warn({ err: error, messageId }, 'trigger message deleted; its work could not be cancelled'),
    );
  };
  client.on(Events.MessageDelete, (message) => cancel(message.id));
  client.on(Events.MessageBulkDelete, (messages) => {
    for (const id of messages.keys()) cancel(id);
  });
}
