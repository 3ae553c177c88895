import type { Gateway, GatewaySession } from './gateway.js';
import type { GuildState } from './guild-state.js';
import { MessageFlags, type ChannelRecord, type InteractionRecord, type MessageRecord } from './model.js';
import { Intent } from './permissions.js';
import { wireChannel, wireGuildMessage, wireInteraction, type Json } from './wire.js';

/**
 * Turns state changes into gateway dispatches, applying Discord's delivery rules per session:
 * intents decide which events arrive, and without MessageContent a message's content, embeds,
 * attachments and components are blanked unless it mentions the bot or the bot wrote it.
 */
export class Dispatcher {
  constructor(
    private readonly gateway: Gateway,
    private readonly state: GuildState,
    private readonly applicationId: string,
    private readonly attachmentSizeLimit: number,
  ) {}

  messageCreate(message: MessageRecord): void {
    this.#message('MESSAGE_CREATE', message);
  }

  messageUpdate(message: MessageRecord): void {
    this.#message('MESSAGE_UPDATE', message);
  }

  messageDelete(message: MessageRecord): void {
    if (isEphemeral(message)) return;
    const d = { id: message.id, channel_id: message.channelId, guild_id: this.state.guild.id };
    this.gateway.dispatch('MESSAGE_DELETE', this.state.guild.id, (session) =>
      hasIntent(session, Intent.GuildMessages) ? d : undefined,
    );
  }

  threadCreate(thread: ChannelRecord): void {
    const d = { ...wireChannel(thread, this.state), newly_created: true };
    this.gateway.dispatch('THREAD_CREATE', this.state.guild.id, (session) =>
      hasIntent(session, Intent.Guilds) ? d : undefined,
    );
  }

  /** Interactions arrive whatever the intents. */
  interactionCreate(interaction: InteractionRecord, optionTypes: ReadonlyMap<string, number>): void {
    const d = wireInteraction(interaction, this.state, this.applicationId, optionTypes, this.attachmentSizeLimit);
    this.gateway.dispatch('INTERACTION_CREATE', this.state.guild.id, () => d);
  }

  #message(t: string, message: MessageRecord): void {
    // Ephemeral interaction responses are shown to one user and never reach the gateway.
    if (isEphemeral(message)) return;
    const full = wireGuildMessage(message, this.state);
    const privileged = message.author.id === this.state.botUser.id || message.mentions.includes(this.state.botUser.id);
    const blanked: Json = { ...full, content: '', embeds: [], attachments: [], components: [] };
    this.gateway.dispatch(t, this.state.guild.id, (session) => {
      if (!hasIntent(session, Intent.GuildMessages)) return undefined;
      return privileged || hasIntent(session, Intent.MessageContent) ? full : blanked;
    });
  }
}

function hasIntent(session: GatewaySession, intent: number): boolean {
  return (session.intents & intent) !== 0;
}

function isEphemeral(message: MessageRecord): boolean {
  return (message.flags & MessageFlags.Ephemeral) !== 0;
}
