import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import { parseArgs, json, str } from '../params.js';
import { messageJson } from '../render.js';
import { checkContent, isOwnMessage, messageText, requireChannel, requireMessage } from './common.js';
import type { MethodSpec } from './types.js';

const blocks = json(z.array(z.unknown()));

const postArgs = z.object({
  channel: str.optional(),
  text: str.optional(),
  markdown_text: str.optional(),
  blocks: blocks.optional(),
  attachments: json(z.array(z.unknown())).optional(),
  thread_ts: str.optional(),
});

const updateArgs = z.object({
  channel: str.optional(),
  ts: str,
  text: str.optional(),
  markdown_text: str.optional(),
  blocks: blocks.optional(),
});

const deleteArgs = z.object({ channel: str.optional(), ts: str });

const ephemeralArgs = z.object({
  channel: str.optional(),
  user: str,
  text: str.optional(),
  blocks: blocks.optional(),
  thread_ts: str.optional(),
});

/** Empty strings count as absent, as Slack treats `thread_ts=` in a form. */
function present(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

export const chatMethods: Record<string, MethodSpec> = {
  'chat.postMessage': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(postArgs, args);
      const channel = requireChannel(env, a.channel);
      const content = messageText(a);
      checkContent(content?.text, a.blocks, (a.attachments?.length ?? 0) > 0);
      const threadTs = present(a.thread_ts);
      const message = env.workspace.post({
        channel: channel.id,
        user: env.identity.botUserId,
        botId: env.identity.botId,
        text: content?.text ?? '',
        ...(content?.format === 'markdown' && { format: 'markdown' as const }),
        ...(a.blocks !== undefined && { blocks: a.blocks }),
        ...(threadTs !== undefined && { threadTs }),
      });
      env.botPosted(message);
      return { channel: channel.id, ts: message.ts, message: messageJson(env.render, message) };
    },
  },

  'chat.update': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(updateArgs, args);
      const channel = requireChannel(env, a.channel);
      const message = requireMessage(env, channel, a.ts);
      if (!isOwnMessage(env, message)) throw new SlackApiError('cant_update_message');
      const content = messageText(a);
      // Omitted fields keep their previous value (Slack documents this for text and blocks).
      checkContent(content?.text ?? message.text, a.blocks ?? message.blocks, message.fileIds.length > 0);
      const previous = { ...message };
      env.workspace.update(message, {
        ...(content !== undefined && { text: content.text, format: content.format }),
        ...(a.blocks !== undefined && { blocks: a.blocks }),
        editedBy: env.identity.botUserId,
      });
      env.botEdited(message, previous);
      return { channel: channel.id, ts: message.ts, text: message.text, message: messageJson(env.render, message) };
    },
  },

  'chat.delete': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(deleteArgs, args);
      const channel = requireChannel(env, a.channel);
      const message = requireMessage(env, channel, a.ts);
      if (!isOwnMessage(env, message)) throw new SlackApiError('cant_delete_message');
      env.workspace.remove(message);
      return { channel: channel.id, ts: message.ts };
    },
  },

  'chat.postEphemeral': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(ephemeralArgs, args);
      const channel = requireChannel(env, a.channel);
      if (!env.workspace.users.has(a.user)) throw new SlackApiError('user_not_found');
      checkContent(a.text, a.blocks);
      const threadTs = present(a.thread_ts);
      const ephemeral = env.workspace.addEphemeral({
        channel: channel.id,
        user: a.user,
        text: a.text ?? '',
        source: 'chat.postEphemeral',
        ...(a.blocks !== undefined && { blocks: a.blocks }),
        ...(threadTs !== undefined && { threadTs }),
      });
      return { message_ts: ephemeral.ts };
    },
  },
};
