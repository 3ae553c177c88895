import { copy } from '@genbot/core/copy';
import type { JobIntake } from '@genbot/core/jobs';
import type { Logger } from '@genbot/core/log';
import type { RepliableInteraction } from 'discord.js';
import { discordCall, toChatError } from '../discord-errors.js';
import { INTERACTION_TOKEN_MS } from '../imagine-job.js';
import { TOKEN_MARGIN_MS } from '../interaction-surface.js';
import { interactionOnly } from '../user-install.js';

/** Before a running job's own margin: a job still in line by then will not answer in time. */
export const TOKEN_END_LEAD_MS = 2 * TOKEN_MARGIN_MS;

/**
 * Where the bot is not (a user install), the interaction's 15 minutes are
 * the only way to the person: a job still waiting in line shortly before
 * they end is taken out of the line, and the answer, still the deferred
 * "thinking…", says the time ran out, while the token can still say it. A job
 * that has started tells it itself (InteractionSurface). In-process and best
 * effort: a bot that stops first says nothing.
 */
export function tellBeforeTokenEnds(options: {
  interaction: RepliableInteraction;
  jobId: string;
  intake: Pick<JobIntake, 'withdraw'>;
  logger: Logger;
  now?: () => number;
}): void {
  const { interaction, jobId, intake, logger } = options;
  if (!interactionOnly(interaction.authorizingIntegrationOwners)) return;
  const now = options.now ?? Date.now;
  const tellAt = interaction.createdTimestamp + INTERACTION_TOKEN_MS - TOKEN_END_LEAD_MS;
  const timer = setTimeout(
    () => {
      void (async () => {
        await intake.withdraw?.(jobId);
        const answer = await discordCall(() => interaction.fetchReply());
        // Still the deferred "thinking…": the job never showed anything.
        if (answer.content !== '' || answer.attachments.size > 0) return;
        await discordCall(() => interaction.editReply({ content: copy.interactionTimeRunningOut }));
        logger.info({ jobId }, 'a user install’s job did not start before its interaction ran out');
      })().catch((error: unknown) =>
        logger.warn({ err: toChatError(error), jobId }, 'could not tell that the interaction is running out'),
      );
    },
    Math.max(0, tellAt - now()),
  );
  timer.unref();
}
