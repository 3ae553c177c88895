import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import type { SlackEnv } from '../env.js';
import { flag, int, parseArgs, str } from '../params.js';
import { channelJson, messageJson } from '../render.js';
import type { SlackMessage } from '../workspace.js';
import { requireChannel } from './common.js';
import type { MethodSpec } from './types.js';

const pageArgs = {
  channel: str.optional(),
  limit: int.optional(),
  cursor: str.optional(),
  oldest: str.optional(),
  latest: str.optional(),
  inclusive: flag.optional(),
};

const repliesArgs = z.object({ ts: str, ...pageArgs });
const historyArgs = z.object(pageArgs);
const infoArgs = z.object({ channel: str.optional() });

/** Cursors are opaque to clients; here the offset, base64-encoded like Slack's `dXNlcjpVMDYx...`. */
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!match?.[1]) throw new SlackApiError('invalid_cursor');
  return Number(match[1]);
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64');
}

function inRange(ts: string, a: z.output<typeof historyArgs>): boolean {
  const inclusive = a.inclusive ?? false;
  const value = Number(ts);
  if (a.oldest !== undefined && a.oldest !== '' && (inclusive ? value < Number(a.oldest) : value <= Number(a.oldest)))
    return false;
  if (a.latest !== undefined && a.latest !== '' && (inclusive ? value > Number(a.latest) : value >= Number(a.latest)))
    return false;
  return true;
}

function page(env: SlackEnv, all: SlackMessage[], a: z.output<typeof historyArgs>): Record<string, unknown> {
  const offset = decodeCursor(a.cursor);
  const { defaultLimit, maxLimit } = env.historyPaging;
  const limit = Math.min(Math.max(a.limit ?? defaultLimit, 1), maxLimit);
  const slice = all.slice(offset, offset + limit);
  const hasMore = offset + limit < all.length;
  return {
    messages: slice.map((m) => messageJson(env.render, m)),
    has_more: hasMore,
    response_metadata: { next_cursor: hasMore ? encodeCursor(offset + limit) : '' },
  };
}

export const conversationMethods: Record<string, MethodSpec> = {
  'conversations.replies': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(repliesArgs, args);
      const channel = requireChannel(env, a.channel);
      const [parent, ...replies] = env.workspace.thread(channel.id, a.ts);
      if (!parent) throw new SlackApiError('thread_not_found');
      // The parent always comes first, whatever the range; replies are filtered by it.
      const kept = [parent, ...replies.filter((m) => inRange(m.ts, a))];
      return page(env, kept, a);
    },
  },

  'conversations.history': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(historyArgs, args);
      const channel = requireChannel(env, a.channel);
      const all = env.workspace.history(channel.id).filter((m) => inRange(m.ts, a));
      return { ...page(env, all, a), pin_count: 0 };
    },
  },

  'conversations.info': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(infoArgs, args);
      return { channel: channelJson(requireChannel(env, a.channel)) };
    },
  },
};
