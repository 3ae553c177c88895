import type { ReplyStream } from '@genbot/core/surface';
import type { webApi } from '@slack/bolt';
import { feedbackBlocks } from './feedback-blocks.js';
import { plainTitle } from './plain-title.js';
import { slackCall, slackErrorCode } from './slack-errors.js';

/** Slack's limit for one `markdown_text`. */
const MAX_MARKDOWN_PER_CALL = 12_000;

export interface NativeStreamOptions {
  client: webApi.WebClient;
  channel: string;
  threadTs: string;
  recipientUserId: string;
  recipientTeamId: string;
  /** Reads the `ts` of the message chat.startStream created. */
  messageTs(method: string, response: unknown): string;
}

/**
 * Slack's AI streaming for one reply (`SLACK_STREAMING=native`) as core's
 * ReplyStream: the assistant status until the stream starts, then
 * chat.startStream, chat.appendStream and chat.stopStream on one message.
 * The text is standard Markdown (`markdown_text`); what the bot does while a
 * tool works is a `task_update` chunk, which Slack shows as a task card
 * among the text (the default `timeline` display), its title plain text.
 * A complete reply ends with feedback buttons (`feedbackBlocks`).
 * When each call goes out, how it is retried and what it carries is core's
 * reply pump's business.
 */
export function nativeStream(options: NativeStreamOptions): ReplyStream {
  const { client, channel, threadTs, messageTs } = options;
  let ts: string | undefined;
  const started = (): string => {
    if (ts === undefined) throw new Error('the Slack stream was used before chat.startStream answered');
    return ts;
  };
  return {
    maxChunkChars: MAX_MARKDOWN_PER_CALL,
    showStatus: async (status) => {
      await slackCall('assistant.threads.setStatus', () =>
        client.assistant.threads.setStatus({ channel_id: channel, thread_ts: threadTs, status }),
      );
    },
    start: async (markdown) => {
      const response = await slackCall('chat.startStream', () =>
        client.chat.startStream({
          channel,
          thread_ts: threadTs,
          markdown_text: markdown,
          recipient_user_id: options.recipientUserId,
          recipient_team_id: options.recipientTeamId,
        }),
      );
      ts = messageTs('chat.startStream', response);
    },
    append: async (markdown) => {
      const at = started();
      await slackCall('chat.appendStream', () =>
        client.chat.appendStream({ channel, ts: at, markdown_text: markdown }),
      );
    },
    task: async ({ id, title, status }) => {
      const at = started();
      await slackCall('chat.appendStream', () =>
        client.chat.appendStream({
          channel,
          ts: at,
          chunks: [{ type: 'task_update', id, title: plainTitle(title), status }],
        }),
      );
    },
    stop: async (markdown, stopping) => {
      const at = started();
      await slackCall('chat.stopStream', () =>
        client.chat.stopStream({
          channel,
          ts: at,
          ...(markdown === undefined ? {} : { markdown_text: markdown }),
          // A whole reply asks what the person thought of it; a cut-off one only says why it stopped.
          ...(stopping?.complete === true && { blocks: feedbackBlocks() }),
        }),
      );
    },
    messageId: () => ts,
  };
}

/**
 * Ends a stream a crashed run left open, keeping its text: one that ended
 * already (or timed out on Slack's side) needs nothing more.
 */
export async function endNativeStream(client: webApi.WebClient, channel: string, ts: string): Promise<void> {
  try {
    await slackCall('chat.stopStream', () => client.chat.stopStream({ channel, ts }));
  } catch (error) {
    if (slackErrorCode(error) !== 'message_not_in_streaming_state') throw error;
  }
}
