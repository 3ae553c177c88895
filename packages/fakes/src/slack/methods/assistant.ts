import { z } from 'zod';
import { json, parseArgs, str } from '../params.js';
import { requireChannel } from './common.js';
import type { MethodSpec } from './types.js';

/** The status, and up to 10 loading messages Slack rotates through in its place. */
const statusArgs = z.object({
  channel_id: str,
  thread_ts: str,
  status: str,
  loading_messages: json(z.array(z.string().min(1)).min(1).max(10)).optional(),
});

export const assistantMethods: Record<string, MethodSpec> = {
  'assistant.threads.setStatus': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(statusArgs, args);
      const channel = requireChannel(env, a.channel_id);
      env.workspace.setStatus({
        channel: channel.id,
        threadTs: a.thread_ts,
        status: a.status,
        atMs: Date.now(),
        ...(a.loading_messages !== undefined && { loadingMessages: a.loading_messages }),
      });
      return {};
    },
  },
};
