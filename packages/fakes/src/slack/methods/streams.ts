import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import type { SlackEnv } from '../env.js';
import { json, parseArgs, str } from '../params.js';
import { messageJson } from '../render.js';
import type { SlackMessage, StreamChunk } from '../workspace.js';
import { checkBlocks } from './blocks.js';
import { isOwnMessage, MAX_BLOCKS, MAX_MARKDOWN_LENGTH, requireChannel, requireMessage } from './common.js';
import type { MethodSpec } from './types.js';

/**
 * The chunk objects Slack's streaming methods take (@slack/types' `AnyChunk`):
 * text, a task's update (`status` is `complete`, never `completed`), a plan's
 * title, or blocks. Anything else is refused, so a bot's malformed chunk
 * fails here as it would on Slack.
 */
const chunk = z.discriminatedUnion('type', [
  z.object({ type: z.literal('markdown_text'), text: z.string() }),
  z.object({
    type: z.literal('task_update'),
    id: z.string().min(1),
    title: z.string().min(1),
    status: z.enum(['pending', 'in_progress', 'complete', 'error']),
    details: z.string().max(256).optional(),
    output: z.string().max(256).optional(),
    sources: z.array(z.unknown()).optional(),
  }),
  z.object({ type: z.literal('plan_update'), title: z.string().min(1) }),
  z.object({ type: z.literal('blocks'), blocks: z.array(z.unknown()).max(MAX_BLOCKS) }),
]);
type Chunk = z.infer<typeof chunk>;
const chunks = json(z.array(chunk));

const textArgs = {
  markdown_text: str.optional(),
  chunks: chunks.optional(),
};

const startArgs = z.object({
  channel: str.optional(),
  thread_ts: str,
  recipient_user_id: str.optional(),
  recipient_team_id: str.optional(),
  ...textArgs,
});

const appendArgs = z.object({ channel: str.optional(), ts: str, ...textArgs });

const stopArgs = z.object({
  channel: str.optional(),
  ts: str,
  blocks: json(z.array(z.unknown())).optional(),
  ...textArgs,
});

interface CallContent {
  markdown_text?: string | undefined;
  chunks?: Chunk[] | undefined;
}

/** The text one call adds: `markdown_text` and/or the text of its markdown_text chunks (web-api 8.2 sends chunks). */
function addedText(a: CallContent): string {
  const parts = [
    a.markdown_text ?? '',
    ...(a.chunks ?? []).flatMap((c) => (c.type === 'markdown_text' ? [c.text] : [])),
  ];
  for (const part of parts) if (part.length > MAX_MARKDOWN_LENGTH) throw new SlackApiError('msg_too_long');
  return parts.join('');
}

/**
 * The message's chunks other than text after one call, each placed after the
 * text that came before it in the call (`markdown_text` goes first).
 */
function addedChunks(a: CallContent, recorded: readonly StreamChunk[] | undefined, textBefore: string): StreamChunk[] {
  let at = textBefore.length + (a.markdown_text ?? '').length;
  const added: StreamChunk[] = [];
  for (const c of a.chunks ?? []) {
    if (c.type === 'markdown_text') at += c.text.length;
    else added.push({ ...c, at });
  }
  return [...(recorded ?? []), ...added];
}

function streamingMessage(env: SlackEnv, channelRef: string | undefined, ts: string): SlackMessage {
  const channel = requireChannel(env, channelRef);
  const message = requireMessage(env, channel, ts);
  if (!isOwnMessage(env, message)) throw new SlackApiError('message_not_owned_by_app');
  if (message.stream?.state !== 'streaming') throw new SlackApiError('message_not_in_streaming_state');
  return message;
}

export const streamMethods: Record<string, MethodSpec> = {
  'chat.startStream': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(startArgs, args);
      const channel = requireChannel(env, a.channel);
      const chunksGiven = addedChunks(a, undefined, '');
      const message = env.workspace.post({
        channel: channel.id,
        threadTs: a.thread_ts,
        user: env.identity.botUserId,
        botId: env.identity.botId,
        text: addedText(a),
        format: 'markdown',
        stream: {
          state: 'streaming',
          ...(a.recipient_user_id !== undefined && { recipientUserId: a.recipient_user_id }),
          ...(a.recipient_team_id !== undefined && { recipientTeamId: a.recipient_team_id }),
          ...(chunksGiven.length > 0 && { chunks: chunksGiven }),
        },
      });
      env.botPosted(message);
      return { channel: channel.id, ts: message.ts };
    },
  },

  'chat.appendStream': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(appendArgs, args);
      if (a.markdown_text === undefined && a.chunks === undefined) throw new SlackApiError('invalid_arguments');
      const message = streamingMessage(env, a.channel, a.ts);
      const text = addedText(a);
      const chunksNow = addedChunks(a, message.stream?.chunks, message.text);
      const moreChunks = chunksNow.length > (message.stream?.chunks?.length ?? 0);
      if (text !== '' || moreChunks) {
        env.workspace.update(message, {
          ...(text !== '' && { text: message.text + text }),
          ...(moreChunks && { stream: { ...message.stream, state: 'streaming', chunks: chunksNow } }),
        });
      }
      return { channel: message.channel, ts: message.ts };
    },
  },

  'chat.stopStream': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(stopArgs, args);
      if (a.blocks !== undefined) checkBlocks(a.blocks, 'invalid_blocks');
      const message = streamingMessage(env, a.channel, a.ts);
      const text = addedText(a);
      const chunksNow = addedChunks(a, message.stream?.chunks, message.text);
      env.workspace.update(message, {
        ...(text !== '' && { text: message.text + text }),
        ...(a.blocks !== undefined && { blocks: a.blocks }),
        stream: { ...message.stream, state: 'stopped', ...(chunksNow.length > 0 && { chunks: chunksNow }) },
      });
      return { channel: message.channel, ts: message.ts, message: messageJson(env.render, message) };
    },
  },
};
