import type { FakeContext } from './context.js';
import { DiscordHttpError } from './errors.js';
import { ChannelType, type ChannelRecord } from './model.js';

export interface NewThread {
  readonly parentId: string;
  readonly name: string;
  readonly ownerId: string;
  /** Start the thread from this message (the thread then takes the message's ID). */
  readonly fromMessageId?: string | undefined;
  readonly autoArchiveDuration?: number | undefined;
}

/** Adds a public thread under a text channel and announces it with THREAD_CREATE. */
export function createThread(ctx: FakeContext, input: NewThread): ChannelRecord {
  const parent = ctx.state.channel(input.parentId);
  if (!parent || parent.type !== ChannelType.GuildText) {
    throw new DiscordHttpError(400, 50024, 'Cannot execute action on this channel type');
  }
  if (input.fromMessageId !== undefined && ctx.state.channel(input.fromMessageId)) {
    throw new DiscordHttpError(400, 160004, 'A thread has already been created for this message');
  }
  const thread = ctx.state.addThread({
    parentId: parent.id,
    name: input.name,
    ownerId: input.ownerId,
    ...(input.fromMessageId === undefined ? {} : { fromMessageId: input.fromMessageId }),
    ...(input.autoArchiveDuration === undefined ? {} : { autoArchiveDuration: input.autoArchiveDuration }),
  });
  ctx.events.threadCreate(thread);
  return thread;
}
