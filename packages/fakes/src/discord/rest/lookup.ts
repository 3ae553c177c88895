import type { FakeContext } from '../context.js';
import { missingAccess, unknownChannel, unknownMessage } from '../errors.js';
import type { ChannelRecord, MessageRecord } from '../model.js';

export function channelOr404(ctx: FakeContext, channelId: string): ChannelRecord {
  const channel = ctx.state.channel(channelId);
  // Names are a test convenience; on the wire a channel is only ever its snowflake.
  if (!channel || channel.id !== channelId) throw unknownChannel();
  // The bot is not in that server: a user install answers only through its interactions.
  if (channel.elsewhere !== undefined) throw missingAccess();
  return channel;
}

export function messageOr404(ctx: FakeContext, channelId: string, messageId: string): MessageRecord {
  channelOr404(ctx, channelId);
  const message = ctx.state.message(channelId, messageId);
  if (!message) throw unknownMessage();
  return message;
}
