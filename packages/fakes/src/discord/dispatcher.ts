import type { Gateway, GatewaySession } from './gateway.js';
import type { GuildState } from './guild-state.js';
import { MessageFlags, type ChannelRecord, type InteractionRecord, type MessageRecord } from './model.js';
import { Intent } from './permissions.js';
import { inGuild, wireChannel, wireGatewayMessage, wireInteraction, type Json } from './wire.js';

/**
 * Turns state changes into gateway dispatches, applying Discord's delivery rules per session:
 * intents decide which events arrive (GuildMessages for the guild's messages, DirectMessages for
 * DMs), and without MessageContent a guild message's content, embeds, attachments and components
 * are blanked unless it mentions the bot or the bot wrote it (a DM's never are).
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
    if (isEphemeral(message) || this.state.channel(message.channelId)?.elsewhere !== undefined) return;
    const guild = inGuild(message.channelId, this.state);
    const d = { id: message.id, channel_id: message.channelId, ...(guild ? { guild_id: this.state.guild.id } : {}) };
    this.gateway.dispatch('MESSAGE_DELETE', this.#guildOf(message.channelId), (session) =>
      hasIntent(session, guild ? Intent.GuildMessages : Intent.DirectMessages) ? d : undefined,
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
    this.gateway.dispatch('INTERACTION_CREATE', this.#guildOf(interaction.channelId), () => d);
  }

  #message(t: string, message: MessageRecord): void {
    // Ephemeral interaction responses are shown to one user and never reach the gateway; nor
    // does anything said in a server the bot is not in.
    if (isEphemeral(message) || this.state.channel(message.channelId)?.elsewhere !== undefined) return;
    const full = wireGatewayMessage(message, this.state);
    if (!inGuild(message.channelId, this.state)) {
      // A DM's content is the bot's to read without MessageContent.
      this.gateway.dispatch(t, null, (session) => (hasIntent(session, Intent.DirectMessages) ? full : undefined));
      return;
    }
    const privileged = message.author.id === this.state.botUser.id || message.mentions.includes(this.state.botUser.id);
    const blanked: Json = { ...full, content: '', embeds: [], attachments: [], components: [] };
    this.gateway.dispatch(t, this.state.guild.id, (session) => {
      if (!hasIntent(session, Intent.GuildMessages)) return undefined;
      return privileged || hasIntent(session, Intent.MessageContent) ? full : blanked;
    });
  }

  /**
   * The guild an event of this channel belongs to; null for a DM or a server the bot is not in
   * (no shard holds it), whose events go to shard 0.
   */
  #guildOf(channelId: string): string | null {
    if (this.state.channel(channelId)?.elsewhere !== undefined) return null;
    return inGuild(channelId, this.state) ? this.state.guild.id : null;
  }
}

function hasIntent(session: GatewaySession, intent: number): boolean {
  return (session.intents & intent) !== 0;
}

function isEphemeral(message: MessageRecord): boolean {
  return (message.flags & MessageFlags.Ephemeral) !== 0;
}
