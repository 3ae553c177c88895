import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import { mediaTypeOf } from '../media.js';
import { int, json, parseArgs, str } from '../params.js';
import { fileJson, fileOnMessageJson } from '../render.js';
import type { SlackFile } from '../workspace.js';
import { requireChannel } from './common.js';
import type { MethodSpec } from './types.js';

const uploadUrlArgs = z.object({
  filename: str,
  length: int.refine((n) => n >= 0),
  alt_text: str.optional(),
});

const completeArgs = z.object({
  files: json(z.array(z.object({ id: z.string(), title: z.string().optional() })).min(1)),
  channel_id: str.optional(),
  thread_ts: str.optional(),
  initial_comment: str.optional(),
  blocks: json(z.array(z.unknown())).optional(),
});

const infoArgs = z.object({ file: str });

export const fileMethods: Record<string, MethodSpec> = {
  'files.getUploadURLExternal': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(uploadUrlArgs, args);
      const { mimetype, filetype } = mediaTypeOf(a.filename);
      const file: SlackFile = {
        id: env.workspace.nextId('F'),
        name: a.filename,
        title: a.filename,
        mimetype,
        filetype,
        declaredLength: a.length,
        user: env.identity.botUserId,
        created: Math.floor(Date.now() / 1000),
        completed: false,
        ...(a.alt_text !== undefined && { altText: a.alt_text }),
      };
      env.workspace.addFile(file);
      return { upload_url: env.uploadUrl(file.id), file_id: file.id };
    },
  },

  'files.completeUploadExternal': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(completeArgs, args);
      // Slack refuses a markdown block here; section, rich_text and actions blocks work.
      if (
        a.blocks?.some(
          (block) => typeof block === 'object' && block !== null && 'type' in block && block.type === 'markdown',
        )
      ) {
        throw new SlackApiError('invalid_blocks');
      }
      // With an initial comment, Slack ignores the blocks.
      const blocks = a.initial_comment === undefined || a.initial_comment === '' ? a.blocks : undefined;
      const files = a.files.map(({ id, title }) => {
        const file = env.workspace.files.get(id);
        // A file whose bytes never reached the upload URL cannot be completed.
        if (!file || file.bytes === undefined || file.completed) throw new SlackApiError('file_not_found');
        return { file, title };
      });
      const channel = a.channel_id !== undefined && a.channel_id !== '' ? requireChannel(env, a.channel_id) : undefined;
      const threadTs = a.thread_ts !== undefined && a.thread_ts !== '' ? a.thread_ts : undefined;
      if (threadTs !== undefined && !channel) throw new SlackApiError('invalid_arguments');
      for (const { file, title } of files) {
        if (title !== undefined && title !== '') file.title = title;
        file.completed = true;
        if (channel) {
          file.channel = channel.id;
          if (threadTs !== undefined) file.threadTs = threadTs;
          if (a.initial_comment !== undefined) file.initialComment = a.initial_comment;
        }
      }
      if (channel) {
        // Sharing into a channel is a message from the bot carrying the files, the comment as its text.
        const message = env.workspace.post({
          channel: channel.id,
          user: env.identity.botUserId,
          botId: env.identity.botId,
          text: a.initial_comment ?? '',
          fileIds: files.map(({ file }) => file.id),
          ...(threadTs !== undefined && { threadTs }),
          ...(blocks !== undefined && { blocks }),
        });
        for (const { file } of files) file.messageTs = message.ts;
        env.botPosted(message);
      }
      env.workspace.changed();
      return { files: files.map(({ file }) => fileJson(env.render, file)) };
    },
  },

  'files.info': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(infoArgs, args);
      const file = env.workspace.files.get(a.file);
      if (!file?.completed) throw new SlackApiError('file_not_found');
      if (file.access === 'tombstone') throw new SlackApiError('file_deleted');
      // A Slack Connect file shows itself in full here, and only here.
      const json = file.access === 'hidden_by_limit' ? fileOnMessageJson(env.render, file) : fileJson(env.render, file);
      return { file: json, comments: [], response_metadata: { next_cursor: '' } };
    },
  },
};
