import { copy } from '@genbot/core/copy';
import type { App } from '@slack/bolt';
import { toMrkdwn } from '../mrkdwn.js';
import type { HandlerContext } from './context.js';

/**
 * Any slash command other than ours (a manifest that lists more, or one
 * pointed at this app by mistake): a short answer only its user sees, so
 * Slack shows no timeout error. Registered after the commands we answer.
 */
export function registerUnknownCommands(
  app: App,
  context: Pick<HandlerContext, 'logger'>,
  known: readonly string[],
): void {
  app.command(/.*/, async ({ command, ack }) => {
    if (known.includes(command.command)) return;
    context.logger.warn({ command: command.command }, 'a slash command this app does not answer');
    await ack({ response_type: 'ephemeral', text: toMrkdwn(copy.unknownCommand(command.command)) });
  });
}
