import type { Logger } from '@genbot/core/log';
import type { JobIntake } from '@genbot/core/jobs';
import { Events, type Client } from 'discord.js';
import { messageJobId } from '../job-ids.js';

/**
 * A deleted message (alone or in a bulk delete) stops the work it started,
 * if any is still running, in this process or (REDIS_URL) in the worker
 * running it; a mention's job still waiting in line ends before a worker
 * takes it, and its place in line goes. discord.js reports deletions of the
 * messages it has cached, which the mentions it just received are.
 */
export function cancelOnDelete(
  client: Client,
  cancellations: { cancelEverywhere(trigger: string): Promise<boolean> },
  intake: JobIntake,
  logger: Logger,
): void {
  const cancel = (messageId: string): void => {
    // A mention's job id is also the key that cancels it.
    const trigger = messageJobId(messageId);
    cancellations.cancelEverywhere(trigger).then(
      (cancelled) => {
        if (cancelled) logger.info({ messageId }, 'trigger message deleted; its work is cancelled');
      },
      (error: unknown) =>
        logger.warn({ err: error, messageId }, 'trigger message deleted; its work could not be cancelled'),
    );
    void intake.withdraw?.(trigger);
  };
  client.on(Events.MessageDelete, (message) => cancel(message.id));
  client.on(Events.MessageBulkDelete, (messages) => {
    for (const id of messages.keys()) cancel(id);
  });
}
