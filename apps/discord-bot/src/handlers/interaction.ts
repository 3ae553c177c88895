import type { Logger } from '@genbot/core/log';
import { type ChatInputCommandInteraction, type Interaction, MessageFlags } from 'discord.js';
import { EDIT_IMAGE_COMMAND, IMAGINE_COMMAND, parseImagineOptions, USAGE_COMMAND } from '../commands.js';
import { discordCall, toChatError } from '../discord-errors.js';
import { GENBOT_COMMAND } from '../settings/genbot-command.js';
import { imagineJob } from '../imagine-job.js';
import { cacheMentionedMembers, cachedNames, plainText } from '../mentions.js';
import type { IngressContext } from './context.js';
import { openMessageEditForm } from './edit-image-command.js';
import { submitForm } from './form-submit.js';
import { answerGenbot, isSettingsButton, isSettingsForm, pressSettingsButton, submitSettings } from './genbot.js';
import { answerRefusal, publicUnlessForbidden } from './private-answer.js';
import { pressResultButton } from './result-button.js';
import { tellBeforeTokenEnds } from './token-end.js';
import { memberRights } from '../settings/member-rights.js';

/**
 * Names in the prompt are looked up before the job is submitted, within a
 * share of Discord's 3 s to answer: past it, unknown names stay unknown.
 */
const NAME_LOOKUP_MS = 1_000;

async function withinTime(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/imagine`: parsed into a job and admitted before Discord is answered, so
 * a refusal (quota, restart) is private; an admitted job gets the public
 * deferred response before it is queued, so its worker always finds it.
 */
async function submitImagine(
  interaction: ChatInputCommandInteraction,
  context: IngressContext,
  logger: Logger,
): Promise<void> {
  const request = parseImagineOptions(interaction.options);
  // The model (and the progress message) read names, not <@id> markup.
  await withinTime(cacheMentionedMembers(request.prompt, interaction.guild), NAME_LOOKUP_MS);
  const names = cachedNames(interaction.client, interaction.guild);
  const prompt = plainText(request.prompt, interaction.client.user.id, names);
  const job = imagineJob(interaction, { ...request, prompt });
  const result = await context.intake.submit(job, {
    beforeQueue: async () => {
      await discordCall(() => interaction.deferReply(publicUnlessForbidden(interaction)));
    },
  });
  if (!result.accepted) {
    logger.info('imagine command refused');
    await answerRefusal(interaction, result.answer, logger);
    return;
  }
  // One interaction id is one job: a repeated delivery was answered the first time.
  if (result.duplicate) {
    logger.debug({ jobId: job.id }, 'imagine command delivered again: answered the first time');
    return;
  }
  logger.info({ jobId: job.id }, 'imagine command');
  tellBeforeTokenEnds({ interaction, jobId: job.id, intake: context.intake, logger });
}

/** `/usage`: this user's usage, to them alone. */
async function answerUsage(interaction: ChatInputCommandInteraction, context: IngressContext): Promise<void> {
  const userId = interaction.user.id;
  // Those who may change the server's settings see its use beside their own; checked on each call, as /genbot does.
  const admin =
    interaction.guildId !== null && memberRights(userId, interaction.memberPermissions, context.adminUserIds).workspace;
  const answer = await context.usage.answer(
    { platform: 'discord', userId, ...(interaction.guildId === null ? {} : { workspaceId: interaction.guildId }) },
    { admin },
  );
  await discordCall(() => interaction.reply({ content: answer, flags: MessageFlags.Ephemeral }));
}

/** What an interaction asks for, or undefined for one the bot does not answer. */
function answer(interaction: Interaction, context: IngressContext, logger: Logger): Promise<void> | undefined {
  if (interaction.isChatInputCommand()) {
    if (interaction.commandName === IMAGINE_COMMAND) return submitImagine(interaction, context, logger);
    if (interaction.commandName === USAGE_COMMAND) return answerUsage(interaction, context);
    if (interaction.commandName === GENBOT_COMMAND) return answerGenbot(interaction, context, logger);
    return undefined;
  }
  if (interaction.isMessageContextMenuCommand() && interaction.commandName === EDIT_IMAGE_COMMAND) {
    return openMessageEditForm(interaction, context.editTargets, logger);
  }
  if (interaction.isButton() && isSettingsButton(interaction.customId)) {
    return pressSettingsButton(interaction, context, logger);
  }
  if (interaction.isButton()) return pressResultButton(interaction, context, logger);
  if (interaction.isModalSubmit() && isSettingsForm(interaction.customId)) {
    return submitSettings(interaction, context, logger);
  }
  if (interaction.isModalSubmit()) return submitForm(interaction, context, logger);
  return undefined;
}

/** Commands, buttons and forms: parsed and handed on; the work itself runs in a job worker. */
export function handleInteraction(interaction: Interaction, context: IngressContext): void {
  const logger = context.logger.child({ interactionId: interaction.id, channelId: interaction.channelId });
  context.turns
    .take()
    .then(() => answer(interaction, context, logger))
    .catch((error: unknown) =>
      logger.error({ err: toChatError(error), interactionType: interaction.type }, 'could not answer the interaction'),
    );
}
