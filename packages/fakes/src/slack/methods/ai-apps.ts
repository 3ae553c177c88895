import { z } from 'zod';
import { SlackApiError } from '../api-error.js';
import { json, parseArgs, str } from '../params.js';
import { requireChannel } from './common.js';
import type { MethodSpec } from './types.js';

/** Slack shows up to four suggested prompts, each with a title and the message it sends. */
const prompts = json(
  z
    .array(z.strictObject({ title: z.string().trim().min(1), message: z.string().trim().min(1) }))
    .min(1)
    .max(4),
);

const suggestedPromptsArgs = z.object({
  channel_id: str,
  prompts,
  thread_ts: str.optional(),
  title: str.optional(),
});

const setTitleArgs = z.object({ channel_id: str, thread_ts: str, title: str.pipe(z.string().trim().min(1)) });

/** A session's title: 1 to 200 characters. */
const renameArgs = z.object({
  channel_id: str,
  thread_ts: str.optional(),
  title: str.pipe(z.string().trim().min(1).max(200)),
});

export const aiAppMethods: Record<string, MethodSpec> = {
  /**
   * Under the agent view the prompts sit at the top of the DM: a call with a
   * `thread_ts` "silently fails" (answered ok, nothing shown). Under the
   * assistant view they go to the thread given, or to the channel's latest
   * message without one.
   */
  'assistant.threads.setSuggestedPrompts': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(suggestedPromptsArgs, args);
      const channel = requireChannel(env, a.channel_id);
      const { aiApps, workspace } = env;
      if (aiApps.view === 'agent' && a.thread_ts !== undefined) return {};
      let threadTs = a.thread_ts;
      if (aiApps.view === 'assistant') {
        threadTs ??= workspace.history(channel.id)[0]?.ts;
        if (threadTs === undefined || workspace.message(channel.id, threadTs) === undefined) {
          throw new SlackApiError('invalid_thread_ts');
        }
      }
      aiApps.addPrompts({
        channel: channel.id,
        prompts: a.prompts,
        atMs: Date.now(),
        ...(threadTs !== undefined && { threadTs }),
        ...(a.title !== undefined && { title: a.title }),
      });
      return {};
    },
  },

  'assistant.threads.setTitle': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(setTitleArgs, args);
      const channel = requireChannel(env, a.channel_id);
      if (env.workspace.message(channel.id, a.thread_ts) === undefined) throw new SlackApiError('invalid_thread_ts');
      env.aiApps.addTitle({
        channel: channel.id,
        threadTs: a.thread_ts,
        title: a.title,
        method: 'assistant.threads.setTitle',
        atMs: Date.now(),
      });
      return {};
    },
  },

  /**
   * An agent session in a DM or a channel is a thread: `thread_ts` names its
   * root (sessions with a channel of their own, which take none, are not
   * modelled). The app must be in the channel.
   */
  'agents.sessions.rename': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(renameArgs, args);
      const channel = requireChannel(env, a.channel_id);
      if (a.thread_ts === undefined) throw new SlackApiError('invalid_arguments');
      if (env.aiApps.view !== 'agent' || env.workspace.message(channel.id, a.thread_ts) === undefined) {
        throw new SlackApiError('session_not_found');
      }
      env.aiApps.addTitle({
        channel: channel.id,
        threadTs: a.thread_ts,
        title: a.title,
        method: 'agents.sessions.rename',
        atMs: Date.now(),
      });
      return { title: a.title };
    },
  },
};
