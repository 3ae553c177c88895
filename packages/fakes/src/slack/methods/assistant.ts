import { z } from 'zod';
import { parseArgs, str } from '../params.js';
import { requireChannel } from './common.js';
import type { MethodSpec } from './types.js';

const statusArgs = z.object({ channel_id: str.optional(), thread_ts: str, status: str });

export const assistantMethods: Record<string, MethodSpec> = {
  'assistant.threads.setStatus': {
    token: 'bot',
    handle: ({ env, args }) => {
      const a = parseArgs(statusArgs, args);
      const channel = requireChannel(env, a.channel_id);
      env.workspace.setStatus({ channel: channel.id, threadTs: a.thread_ts, status: a.status, atMs: Date.now() });
      return {};
    },
  },
};
