import { ASPECT_RATIOS, copy, imagine } from '@genbot/core';
import type { App } from '@slack/bolt';
import { toMrkdwn } from '../mrkdwn.js';
import { parseImagineCommand } from '../parse-command.js';
import { SHUTTING_DOWN, type HandlerContext } from './context.js';

export const MISSING_ASPECT_RATIO = `Add an aspect ratio after \`--ar\`, for example \`/imagine a lighthouse at dusk --ar 16:9\`. Allowed: ${ASPECT_RATIOS.join(', ')}.`;
const UNREADABLE = 'Sorry, I couldn’t read that command. Please try again.';

/**
 * `/imagine PROMPT [--ar W:H]`: acknowledged at once; a missing prompt gets
 * the usage line only the user sees; otherwise the imagine use case posts its
 * progress message in the channel and uploads the images there. No message
 * triggers it, so nothing can be deleted to cancel it: only shutdown stops it.
 */
export function registerImagineCommand(app: App, context: HandlerContext): void {
  const { work, logger, deps, surface } = context;
  app.command('/imagine', async ({ command, ack }) => {
    const parsed = parseImagineCommand(command);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, '/imagine command in an unexpected shape');
      await ack({ response_type: 'ephemeral', text: UNREADABLE });
      return;
    }
    const { channelId, userId, prompt, aspectRatio, missingAspectRatio } = parsed.value;
    if (prompt === '' || missingAspectRatio) {
      await ack({ response_type: 'ephemeral', text: toMrkdwn(prompt === '' ? copy.emptyPrompt : MISSING_ASPECT_RATIO) });
      return;
    }
    if (!work.accepting) {
      await ack({ response_type: 'ephemeral', text: SHUTTING_DOWN });
      return;
    }
    await ack();
    const log = logger.child({ channel: channelId, command: '/imagine' });
    work.run(
      async (signal) => {
        // The model (and the progress message) read names, not Slack's <@U…> markup.
        const readablePrompt = await surface.readable(prompt);
        const outcome = await imagine({ target: { channelId }, prompt: readablePrompt, aspectRatio, userId }, { ...deps, logger: log }, signal);
        log.info({ outcome }, '/imagine handled');
      },
      (error) => log.error({ err: error }, '/imagine failed'),
    );
  });
}
