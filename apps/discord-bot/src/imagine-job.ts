import type { ChatJob } from '@genbot/core/jobs';
import type { ChatInputCommandInteraction } from 'discord.js';
import type { ImagineRequest } from './commands.js';
import { interactionJobId } from './job-ids.js';
import { settingsChannelOf } from './settings-channel.js';

/** An interaction token works for 15 minutes from the interaction. */
export const INTERACTION_TOKEN_MS = 15 * 60_000;

/**
 * `/imagine` as a job: plain data, with the interaction's token and its
 * expiry so a worker can answer through the interaction webhook.
 */
export function imagineJob(interaction: ChatInputCommandInteraction, request: ImagineRequest): ChatJob {
  const userId = interaction.user.id;
  return {
    id: interactionJobId(interaction.id),
    platform: 'discord',
    workspaceId: interaction.guildId ?? undefined,
    channelId: interaction.channelId,
    settingsChannelId: settingsChannelOf(interaction.channel),
    userId,
    input: { kind: 'imagine', imagine: { target: { channelId: interaction.channelId }, ...request, userId } },
    interaction: {
      token: interaction.token,
      expiresAt: new Date(interaction.createdTimestamp + INTERACTION_TOKEN_MS),
    },
  };
}
