import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import type { SlackEnv } from '../env.js';
import { json, parseArgs, str } from '../params.js';
import { messageJson } from '../render.js';
import type { SlackMessage } from '../workspace.js';
import { isOwnMessage, MAX_MARKDOWN_LENGTH, requireChannel, requireMessage } from './common.js';
import type { MethodSpec } from './types.js';

// Chunks other than markdown_text (task_update, plan_update, blocks) are accepted and carry no text.
const chunks = json(z.array(z.object({ type: z.string(), text: z.string().optional() })));

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

/** The text one call adds: `markdown_text` and/or the text of its markdown_text chunks (web-api 8.2 sends chunks). */
function addedText(a: {
  markdown_text?: string | undefined;
  chunks?: Array<{ type: string; text?: string | undefined }> | undefined;
}): string {
  const parts = [
    a.markdown_text ?? '',
    ...(a.chunks ?? []).filter((c) => c.type === 'markdown_text').map((c) => c.text ?? ''),
  ];
  for (const part of parts) if (part.length > MAX_MARKDOWN_LENGTH) throw new SlackApiError('msg_too_long');
  return parts.join('');
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
      if (text !== '') env.workspace.update(message, { text: message.text + text });
      return { channel: message.channel, ts: message.ts };
    },
  },

  'chat.stopStream': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(stopArgs, args);
      const message = streamingMessage(env, a.channel, a.ts);
      const text = addedText(a);
      env.workspace.update(message, {
        ...(text !== '' && { text: message.text + text }),
        ...(a.blocks !== undefined && { blocks: a.blocks }),
        stream: { ...message.stream, state: 'stopped' },
      });
      return { channel: message.channel, ts: message.ts, message: messageJson(env.render, message) };
    },
  },
};
