import type { Channel } from 'discord.js';

/**
 * The channel whose settings apply where a request came from: a thread is a
 * channel of its own on Discord, and follows its parent's settings (as
 * `/genbot` in a thread changes its parent's). Undefined: the channel itself.
 */
export function settingsChannelOf(channel: Channel | null | undefined): string | undefined {
  return channel?.isThread() === true ? (channel.parentId ?? undefined) : undefined;
}
