import type { ChatJob } from '@genbot/core/jobs';
import type { Message, ModalSubmitInteraction } from 'discord.js';
import { INTERACTION_TOKEN_MS } from '../imagine-job.js';
import { formJobId } from '../job-ids.js';
import { toThreadMessage } from '../thread-message.js';
import { settingsChannelOf } from '../settings-channel.js';

/**
 * An Edit image form as a job: an edit of the message's image, answered as a
 * reply to that message (continuing that image's versions when the bot made it). The form's own interaction carries
 * the person's progress privately while its token lasts.
 */
export function messageEditJob(options: {
  submit: ModalSubmitInteraction;
  openedBy: string;
  target: Message;
  instruction: string;
}): ChatJob {
  const { submit, target, instruction } = options;
  const selfId = submit.client.user.id;
  const userId = submit.user.id;
  const place = { channelId: target.channelId, threadId: target.id };
  return {
    id: formJobId(options.openedBy),
    platform: 'discord',
    workspaceId: submit.guildId ?? undefined,
    ...place,
    settingsChannelId: settingsChannelOf(target.channel),
    userId,
    input: {
      kind: 'message-edit',
      edit: { target: place, instruction, source: toThreadMessage(target, selfId), userId },
    },
    interaction: { token: submit.token, expiresAt: new Date(submit.createdTimestamp + INTERACTION_TOKEN_MS) },
  };
}
