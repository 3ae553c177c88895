import type { AttachmentRef } from '@genbot/core/surface';
import { type Interaction, type Message, PermissionFlagsBits } from 'discord.js';
import { messageAttachments } from './thread-message.js';

/** A result message's files at most (Discord's limit per message). */
const MAX_SHOWN = 10;

/** Who authorised an interaction, as discord.js reads `authorizing_integration_owners`. */
export interface IntegrationOwners {
  /** The server install's guild id ("0" in the bot's DM); null when no server install authorised it. */
  guildId: string | null;
}

/**
 * Whether only a person's own install (a user install) authorised the
 * interaction: the app is used in a server (or a DM) the bot is not in, so
 * it may answer through the interaction alone, never read or post in the
 * channel.
 */
export function interactionOnly(owners: IntegrationOwners | null | undefined): boolean {
  return owners !== null && owners !== undefined && owners.guildId === null;
}

/**
 * Whether a user install's answers must be ephemeral: the server withholds
 * Use External Apps from the person, and Discord turns every public answer
 * of an app it has not installed into an ephemeral one. Asking for it makes
 * the bot's own picture of its answers match what people see.
 */
export function answersMustBePrivate(interaction: Interaction): boolean {
  if (!interactionOnly(interaction.authorizingIntegrationOwners)) return false;
  const permissions = interaction.memberPermissions;
  return permissions !== null && !permissions.has(PermissionFlagsBits.UseExternalApps);
}

/**
 * The images of the message an interaction came from (a result's button, or
 * the form it opened), as the interaction showed them, with their signed
 * URLs: where the bot may not read the channel (a user install), the job
 * keeps them, so any worker, now or after a restart, can read the image
 * back. Undefined elsewhere: there the message is fetched again for fresh URLs.
 */
export function shownBy(interaction: Interaction, message: Message): AttachmentRef[] | undefined {
  if (!interactionOnly(interaction.authorizingIntegrationOwners)) return undefined;
  return messageAttachments(message).slice(0, MAX_SHOWN);
}
