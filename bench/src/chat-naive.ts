/**
 * The "edit on every delta" baseline: minimal surfaces over the fakes' HTTP
 * APIs whose `minPostIntervalMs` and `minEditIntervalMs` are 0, so core's writer sends an edit for each
 * delta as soon as the previous call returned. Only what a streamed reply
 * uses is implemented.
 */
import type { ChatSurface, MessageRef, SurfaceLimits } from '@genbot/core/surface';
import { RateLimitedError } from '@genbot/core/errors';

const NAIVE_LIMITS: Omit<SurfaceLimits, 'maxMessageChars'> = {
  minPostIntervalMs: 0,
  minEditIntervalMs: 0,
  maxFilesPerMessage: 10,
  maxUploadBytes: 10 * 1024 * 1024,
};

async function call(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  if (response.status === 429) throw new RateLimitedError(Number(response.headers.get('retry-after') ?? '1') * 1000);
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}`);
  return body;
}

function chatOnly(): never {
  throw new Error('the naive surface serves streamed replies only');
}

export function naiveSlackSurface(apiUrl: string, botToken: string): ChatSurface {
  const slack = async (
    method: string,
    args: Record<string, unknown>,
  ): Promise<{ ok: boolean; ts?: string; error?: string }> => {
    const body = (await call(`${apiUrl}${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${botToken}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(args),
    })) as { ok: boolean; ts?: string; error?: string };
    if (!body.ok) throw new Error(`${method}: ${body.error ?? 'failed'}`);
    return body;
  };
  return {
    platform: 'slack',
    limits: { ...NAIVE_LIMITS, maxMessageChars: 4_000 },
    async post(target, text): Promise<MessageRef> {
      const { ts } = await slack('chat.postMessage', {
        channel: target.channelId,
        thread_ts: target.threadId,
        markdown_text: text,
      });
      return { channelId: target.channelId, threadId: target.threadId, messageId: ts ?? '' };
    },
    async edit(message, text) {
      await slack('chat.update', { channel: message.channelId, ts: message.messageId, markdown_text: text });
    },
    uploadFiles: chatOnly,
    readThread: async () => [],
    download: chatOnly,
  };
}

export function naiveDiscordSurface(apiUrl: string, botToken: string): ChatSurface {
  const headers = { authorization: `Bot ${botToken}`, 'content-type': 'application/json' };
  const rest = `${apiUrl}/v10`;
  return {
    platform: 'discord',
    limits: { ...NAIVE_LIMITS, maxMessageChars: 2_000 },
    async post(target, text): Promise<MessageRef> {
      const reference =
        target.threadId === undefined
          ? {}
          : { message_reference: { message_id: target.threadId, fail_if_not_exists: false } };
      const { id } = (await call(`${rest}/channels/${target.channelId}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: text, ...reference }),
      })) as { id: string };
      return { channelId: target.channelId, threadId: target.threadId, messageId: id };
    },
    async edit(message, text) {
      await call(`${rest}/channels/${message.channelId}/messages/${message.messageId}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ content: text }),
      });
    },
    // As the real bot does: typing until the first text, so that text is a post, not an edit.
    async showProgress(target) {
      await call(`${rest}/channels/${target.channelId}/typing`, { method: 'POST', headers });
    },
    uploadFiles: chatOnly,
    readThread: async () => [],
    download: chatOnly,
  };
}
